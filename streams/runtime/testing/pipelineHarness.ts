import type { ConsumedRecord } from '../../kafka/index.ts';
import { createMemoryStore } from '../../../sinks/memory/index.ts';
import { createBatchHandler } from '../stages/createBatchHandler.ts';
import { inputFailureRouter, type FailureRouter } from '../failures/failureRouter.ts';
import { defaultMutationIdOf } from '../stages/logFields.ts';
import { createPartitionPauser } from '../consumer/partitionPauser.ts';
import type { PipelineDeps } from '../stages/pipelineTypes.ts';
import { runPipeline } from '../stages/runPipeline.ts';
import { createRuntimeMetrics } from '../runtimeMetrics.ts';
import { faultyStore } from './faultyStore.ts';
import { fakePublisher } from './fakeKafka.ts';
import { recordingLogger } from './silentLogger.ts';
import { createTestClock, type TestClock } from './testClock.ts';
import { createTestProcessor, decodeTestEvent, TEST_NAMESPACES, validateTestEvent, type TestEvent, type TestProcessorOptions } from './testProcessor.ts';

/**
 * The runtime's batch handler wired to in-memory parts: the test processor,
 * sinks/memory behind a fault-injecting wrapper, a recording publisher, a
 * test clock and a recording logger. No Kafka.
 */
export function pipelineHarness(
  opts: {
    maxRecordsPerChunk?: number;
    clock?: TestClock;
    route?: FailureRouter;
    dueAtMs?: (m: ConsumedRecord) => number;
    processor?: TestProcessorOptions;
    /** The input consumer's key → partition map (PipelineDeps.partitionOfKey); absent, as in a repair runner. */
    partitionOfKey?: (key: string) => number;
    /** PipelineDeps.repairsPending (with `partitionOfKey`). */
    repairsPending?: (partition: number) => boolean;
  } = {},
) {
  const clock = opts.clock ?? createTestClock();
  const memory = createMemoryStore({ namespaces: TEST_NAMESPACES });
  const faulty = faultyStore(memory);
  const pub = fakePublisher();
  const metrics = createRuntimeMetrics();
  const { logger, lines } = recordingLogger();
  const seen = { reads: [] as (string | undefined)[], soleWriter: [] as boolean[] };
  let encodeEmit: PipelineDeps<TestEvent>['encodeEmit'] = async (emit) => ({
    topic: `p.${emit.topic}`,
    key: emit.key,
    value: Buffer.from(JSON.stringify(emit.value)),
  });
  const deps: PipelineDeps<TestEvent> = {
    processor: createTestProcessor(seen, opts.processor),
    decode: decodeTestEvent,
    validate: validateTestEvent,
    store: faulty.store,
    encodeEmit: (emit) => encodeEmit(emit),
    publisher: pub.publisher,
    clock,
    logger,
    retry: { budgetMs: 1_000, initialBackoffMs: 100, maxBackoffMs: 400 },
    readConcurrency: 4,
    metrics,
    mutationIdOf: defaultMutationIdOf,
    ...(opts.partitionOfKey ? { partitionOfKey: async (key: string) => (opts.partitionOfKey as (k: string) => number)(key) } : {}),
    ...(opts.repairsPending ? { repairsPending: async (partition: number) => (opts.repairsPending as (p: number) => boolean)(partition) } : {}),
  };
  const handler = createBatchHandler({
    run: (source, messages, heartbeat) => runPipeline(deps, source, messages, heartbeat),
    route: opts.route ?? inputFailureRouter({ repairTopic: 'p.in.repair', dlqTopic: 'p.in.dlq' }),
    publisher: pub.publisher,
    clock,
    logger,
    metrics,
    maxRecordsPerChunk: opts.maxRecordsPerChunk ?? 100,
    pauser: createPartitionPauser(clock),
    ...(opts.dueAtMs ? { dueAtMs: opts.dueAtMs } : {}),
  });
  return {
    handler,
    clock,
    memory,
    ...faulty,
    ...pub,
    metrics,
    lines,
    seen,
    setEncodeEmit: (fn: typeof encodeEmit) => void (encodeEmit = fn),
  };
}
