import type { ConsumedRecord, KafkaPort } from '../../kafka/index.ts';
import type { Logger } from 'pino';
import type { EventProcessor, LogicalTopic } from '../../../processors/index.ts';
import type { EdgestreamConfig } from '../../../schemas/config/edgestreamConfig.ts';
import type { KnownSchema } from '../../../schemas/index.ts';
import type { TwoLevelMapStore } from '../../../sinks/store/index.ts';
import type { AvroSerde } from '../../serde/index.ts';
import { repairTopicOf, topicName } from '../../topics/index.ts';
import { backoffMs } from '../failures/backoff.ts';
import { systemClock, type Clock } from '../Clock.ts';
import { createChunkRunner } from './createChunkRunner.ts';
import type { Runner } from '../consumer/createConsumerLoop.ts';
import { composeProcessorStore, isProcessorStore, type ProcessorStore } from '../store/composeProcessorStore.ts';
import { createEmitEncoder, type EmitSchemas } from '../stages/emitEncoder.ts';
import { failureTopicsOf, inputFailureRouter, repairFailureRouter, type FailureRouter } from '../failures/failureRouter.ts';
import { readRepairState } from '../failures/headers.ts';
import { exclusiveCellKeys, memoizedDecode } from '../stages/exclusiveCellKeys.ts';
import { createKeyPartitioner } from '../consumer/keyPartitioner.ts';
import { createRepairWatch } from '../failures/repairWatch.ts';
import { createLinkCache, type LinkCache } from '../store/linkCache.ts';
import { defaultMutationIdOf } from '../stages/logFields.ts';
import type { PipelineDeps, Publisher, ValidateEvent } from '../stages/pipelineTypes.ts';
import { createChunkSlots } from '../stages/runChunksPipelined.ts';
import { runPipeline } from '../stages/runPipeline.ts';
import { createRuntimeMetrics } from '../runtimeMetrics.ts';
import { inputFetchTuning, resolveTuning, retryPolicyOf, type RuntimeTuning } from '../runtimeTuning.ts';

export interface ProcessorRuntimeOptions<E> {
  readonly kafka: KafkaPort;
  readonly serde: AvroSerde;
  /**
   * The store the processor's reads and writes go to; the runtime does not close it. A
   * plain store gets the runtime's link cache on top; a composed one (composeProcessorStore:
   * createEdgePipeline's link cache, tombstone cache and split mirror) is used as it is.
   */
  readonly store: TwoLevelMapStore | ProcessorStore;
  readonly processor: EventProcessor<E>;
  /** The reader schema of the input topic (events are resolved into it). */
  readonly schema: KnownSchema<E>;
  readonly validate: ValidateEvent<E>;
  readonly config: EdgestreamConfig;
  readonly logger: Logger;
  /** The logical input topic; its `.repair` and `.dlq` topics are derived. Default `edge-mutations`. */
  readonly input?: LogicalTopic;
  readonly clock?: Clock;
  readonly emitSchemas?: EmitSchemas;
  readonly tuning?: Partial<RuntimeTuning>;
  /**
   * The write-aside link cache. Default: a fresh one with
   * `runtime.linkCacheEntries` entries (none when 0). Pass one instance to
   * both the runtime and its repair runner to share it, or `false` to turn it off.
   * Only for a plain `store`: a composed one brings its own.
   */
  readonly linkCache?: LinkCache | false;
  readonly mutationIdOf?: (event: E) => string | undefined;
}

/**
 * The runtime of one processor (docs/architecture.md §5 "Runtime"): consumer
 * group `<prefix><processor>` on the input topic; failures of writes go to
 * `<input>.repair`, bad events to `<input>.dlq`. See createBatchHandler and
 * runPipeline for the per-chunk steps.
 */
export function createProcessorRuntime<E>(opts: ProcessorRuntimeOptions<E>): Runner {
  const input = opts.input ?? 'edge-mutations';
  const prefix = opts.config.topics.prefix;
  return buildRunner(opts, {
    groupId: `${prefix}${opts.processor.name}`,
    tuning: inputFetchTuning(opts.config),
    topic: topicName(prefix, input),
    component: 'runtime',
    route: inputFailureRouter(failureTopicsOf(prefix, input)),
    routesByKey: true,
  });
}

/**
 * The repair runner of one processor: consumer group
 * `<prefix><processor>.repair` on `<input>.repair`. A record is due at its
 * timestamp + `repairInitialBackoffMs · 2^(attempt-1)` (capped by
 * `repairMaxBackoffMs`); until then its partition is paused (records behind
 * it wait too: a partition is repaired in order). A due record re-runs the
 * same processor path with fresh reads; a failure is re-published with
 * attempt+1, and after `repairMaxAttempts` failed attempts parked in the DLQ.
 */
export function createRepairRunner<E>(opts: ProcessorRuntimeOptions<E>): Runner {
  const input = opts.input ?? 'edge-mutations';
  const prefix = opts.config.topics.prefix;
  const { repairInitialBackoffMs, repairMaxBackoffMs, repairMaxAttempts } = opts.config.runtime;
  return buildRunner(opts, {
    groupId: `${prefix}${opts.processor.name}.repair`,
    // A resumed partition waits for the fetch in flight: keep that wait short next to the back-offs.
    tuning: { maxWaitTimeMs: Math.max(100, Math.min(1_000, repairInitialBackoffMs)) },
    topic: topicName(prefix, repairTopicOf(input)),
    component: 'repair',
    route: repairFailureRouter({ ...failureTopicsOf(prefix, input), maxAttempts: repairMaxAttempts }),
    repairRunner: true,
    dueAtMs: (message) => {
      const attempt = Math.max(1, readRepairState(message.headers).attempt);
      return Number(message.timestamp) + backoffMs(attempt, repairInitialBackoffMs, repairMaxBackoffMs);
    },
  });
}

interface RunnerSpec {
  readonly groupId: string;
  /** This runner's defaults; the caller's `tuning` overrides them. */
  readonly tuning?: Partial<RuntimeTuning>;
  readonly topic: string;
  readonly component: string;
  readonly route: FailureRouter;
  readonly dueAtMs?: (message: ConsumedRecord) => number;
  /** The input's runner: records go to their routing key's partition, whose consumer is the key's sole writer (pipelineTypes `partitionOfKey`). */
  readonly routesByKey?: boolean;
  /** The repair runner's: it re-runs events the input runner accepted (pipelineTypes `repairRunner`). */
  readonly repairRunner?: boolean;
}

function buildRunner<E>(opts: ProcessorRuntimeOptions<E>, spec: RunnerSpec): Runner {
  const clock = opts.clock ?? systemClock;
  const tuning = resolveTuning(opts.config, { ...spec.tuning, ...opts.tuning });
  const logger = opts.logger.child({ component: spec.component, processor: opts.processor.name });
  const { top: store, linkCache } = processorStoreOf(opts);
  const metrics = createRuntimeMetrics(linkCache ? () => linkCache.stats() : undefined);
  const routed = spec.routesByKey === true && opts.processor.routingKey !== undefined;
  const partitionOfKey = routed ? createKeyPartitioner(opts.kafka, spec.topic) : undefined;
  const repairTopic = topicName(opts.config.topics.prefix, repairTopicOf(opts.input ?? 'edge-mutations'));
  const repairs = routed ? createRepairWatch(opts.kafka, repairTopic, `${opts.config.topics.prefix}${opts.processor.name}.repair`) : undefined;
  // Note each hand-off to the repair topic (before it is produced): the partition is not a sole writer until it is repaired.
  const route: FailureRouter = repairs === undefined ? spec.route : (message, source, outcome, nowMs) => {
    const record = spec.route(message, source, outcome, nowMs);
    if (record?.topic === repairTopic) repairs.handedOff(source.partition);
    return record;
  };
  const decode = memoizedDecode(async (value: Buffer) => (await opts.serde.decode(value, opts.schema)).value);
  const depsWith = (publisher: Publisher): PipelineDeps<E> => ({
    processor: opts.processor,
    decode,
    validate: opts.validate,
    store,
    encodeEmit: createEmitEncoder({ serde: opts.serde, prefix: opts.config.topics.prefix, ...(opts.emitSchemas ? { schemas: opts.emitSchemas } : {}) }),
    publisher,
    clock,
    logger,
    retry: retryPolicyOf(opts.config, tuning),
    readConcurrency: tuning.readConcurrency,
    metrics,
    mutationIdOf: opts.mutationIdOf ?? defaultMutationIdOf,
    ...(spec.repairRunner === true ? { repairRunner: true } : {}),
    ...(partitionOfKey ? { partitionOfKey } : {}),
    ...(repairs ? { repairsPending: (partition: number) => repairs.pending(partition) } : {}),
  });
  return createChunkRunner({
    kafka: opts.kafka,
    config: opts.config,
    tuning,
    clock,
    logger,
    metrics,
    groupId: spec.groupId,
    topic: spec.topic,
    route,
    ...(spec.dueAtMs ? { dueAtMs: spec.dueAtMs } : {}),
    // The input's chunks of one partition overlap, one edge's ops in order: a hot source is not one chunk at a time.
    ...(routed
      ? { pipelining: { chunksInFlight: tuning.chunksInFlightPerPartition, conflictKeys: exclusiveCellKeys(opts.processor, decode), slots: createChunkSlots(opts.config.runtime.partitionsConsumedConcurrently) } }
      : {}),
    // A partition that moved away and back may have had repairs handed off meanwhile (RepairWatch.assigned).
    ...(repairs ? { onAssignment: () => repairs.assigned() } : {}),
    run: (publisher) => {
      const deps = depsWith(publisher);
      return (source, messages, heartbeat) => runPipeline(deps, source, messages, heartbeat);
    },
  });
}

/** The runner's composed store: the caller's, or a plain store under the runtime's link cache. */
function processorStoreOf<E>(opts: ProcessorRuntimeOptions<E>): ProcessorStore {
  if (isProcessorStore(opts.store)) return opts.store;
  const cache = opts.linkCache ?? (opts.config.runtime.linkCacheEntries > 0 ? createLinkCache({ entries: opts.config.runtime.linkCacheEntries }) : false);
  return composeProcessorStore({ store: opts.store, ...(cache ? { linkCache: cache } : {}) });
}
