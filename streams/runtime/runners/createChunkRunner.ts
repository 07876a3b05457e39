import type { ConsumedRecord, KafkaPort } from '../../kafka/index.ts';
import type { Logger } from 'pino';
import type { EdgestreamConfig } from '../../../schemas/config/edgestreamConfig.ts';
import type { Clock } from '../Clock.ts';
import { createBatchHandler, type BatchHandlerOptions } from '../stages/createBatchHandler.ts';
import { createConsumerLoop, type Runner } from '../consumer/createConsumerLoop.ts';
import type { FailureRouter } from '../failures/failureRouter.ts';
import { createKafkaPublisher, createRuntimeProducer } from '../consumer/kafkaPublisher.ts';
import { createPartitionPauser } from '../consumer/partitionPauser.ts';
import type { ChunkPipelining } from '../stages/runChunksPipelined.ts';
import type { Publisher } from '../stages/pipelineTypes.ts';
import type { RuntimeMetrics } from '../runtimeMetrics.ts';
import { consumerLoopSettings, type RuntimeTuning } from '../runtimeTuning.ts';

export interface ChunkRunnerOptions {
  readonly kafka: KafkaPort;
  readonly config: EdgestreamConfig;
  readonly tuning: RuntimeTuning;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: RuntimeMetrics;
  readonly groupId: string;
  readonly topic: string;
  readonly route: FailureRouter;
  readonly dueAtMs?: (message: ConsumedRecord) => number;
  /** See BatchHandlerOptions.pipelining. */
  readonly pipelining?: ChunkPipelining;
  /** The runner's chunk logic, given the publisher its emits share with the repair/DLQ hand-off. */
  readonly run: (publisher: Publisher) => BatchHandlerOptions['run'];
  /** See ConsumerLoopOptions.onAssignment. */
  readonly onAssignment?: () => void;
}

/**
 * The Kafka side every runner shares (processor, repair, cascade, split
 * stages): one idempotent producer for emits and hand-offs, the partition
 * pauser, the chunking batch handler that commits after the hand-off, and
 * the consumer loop. A runner only brings its chunk logic and its router.
 */
export function createChunkRunner(o: ChunkRunnerOptions): Runner {
  const producer = createRuntimeProducer(o.kafka);
  const publisher = createKafkaPublisher(producer);
  const pauser = createPartitionPauser(o.clock);
  const handler = createBatchHandler({
    run: o.run(publisher),
    route: o.route,
    publisher,
    clock: o.clock,
    logger: o.logger,
    metrics: o.metrics,
    maxRecordsPerChunk: o.tuning.maxRecordsPerChunk,
    pauser,
    ...(o.dueAtMs ? { dueAtMs: o.dueAtMs } : {}),
    ...(o.pipelining ? { pipelining: o.pipelining } : {}),
  });
  return createConsumerLoop({
    kafka: o.kafka,
    groupId: o.groupId,
    topic: o.topic,
    producer,
    handler,
    logger: o.logger,
    metrics: o.metrics,
    pauser,
    ...consumerLoopSettings(o.config, o.tuning),
    ...(o.onAssignment ? { onAssignment: o.onAssignment } : {}),
  });
}
