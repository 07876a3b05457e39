import type { BatchPayload, ConsumedRecord } from '../../kafka/index.ts';
import type { Logger } from 'pino';
import type { Clock } from '../Clock.ts';
import type { FailureRouter } from '../failures/failureRouter.ts';
import type { PartitionPauser } from '../consumer/partitionPauser.ts';
import type { ChunkSource, Publisher, RecordOutcome } from './pipelineTypes.ts';
import type { RuntimeMetrics } from '../runtimeMetrics.ts';
import { handOffAndCommit, noteBatchFailure } from './chunkHandOff.ts';
import { runChunksPipelined, type ChunkPipelining } from './runChunksPipelined.ts';

/** What the handler gets per fetched batch: the Kafka port's (unit tests drive it with testing/fakeKafka). */
export type { BatchPayload };

export interface BatchHandlerOptions {
  /** Runs a chunk through the processor path (see runPipeline). */
  readonly run: (source: ChunkSource, messages: readonly ConsumedRecord[], heartbeat: () => Promise<void>) => Promise<RecordOutcome[]>;
  readonly route: FailureRouter;
  readonly publisher: Publisher;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: RuntimeMetrics;
  /** Records per pipeline run; the offset is committed after each chunk. */
  readonly maxRecordsPerChunk: number;
  /** When a record may be processed (ms); absent means at once. */
  readonly dueAtMs?: (message: ConsumedRecord) => number;
  readonly pauser: PartitionPauser;
  /** Overlapped chunks of one partition (see runChunksPipelined); absent or with `dueAtMs`: one chunk at a time. */
  readonly pipelining?: ChunkPipelining;
}

/**
 * The eachBatch handler (autoCommit off, eachBatchAutoResolve off). Per chunk
 * of the batch: run the pipeline, produce the repair/DLQ records and wait for
 * their acks, then resolve and commit the chunk's last offset. If that
 * hand-off fails, nothing is resolved: the handler throws BATCH_RETRY and
 * kafkajs re-delivers from the last resolved offset. Between chunks it stops
 * early when the consumer is stopping or the partition was revoked/seeked,
 * so a stop finishes at most the chunk in flight.
 *
 * With `dueAtMs`, a record that is not due yet ends the batch: the partition
 * is paused and resumed when the record is due.
 */
export function createBatchHandler(opts: BatchHandlerOptions): (payload: BatchPayload) => Promise<void> {
  const { maxRecordsPerChunk, clock, logger } = opts;
  const pipelining = opts.dueAtMs === undefined && opts.pipelining !== undefined && opts.pipelining.chunksInFlight > 1 ? opts.pipelining : undefined;
  return async (payload) => {
    const { batch } = payload;
    const source: ChunkSource = { topic: batch.topic, partition: batch.partition };
    if (pipelining !== undefined) return runChunksPipelined(opts, pipelining, payload, source);
    const messages = batch.messages;
    let next = 0;
    while (next < messages.length) {
      if (!payload.isRunning() || payload.isStale()) return;
      const { chunk, waitUntilMs } = takeDueChunk(messages, next, maxRecordsPerChunk, opts.dueAtMs, clock.nowMs());
      let waitUntil = waitUntilMs;
      if (chunk.length > 0) {
        const settled = await settleChunk(opts, payload, source, chunk);
        next += settled.count;
        waitUntil = settled.deferUntilMs ?? waitUntil;
      }
      if (waitUntil !== undefined) {
        logger.debug({ ...source, offset: messages[next]?.offset, due_in_ms: waitUntil - clock.nowMs() }, 'record not due; partition paused');
        opts.pauser.pauseUntil(`${source.topic}:${source.partition}`, payload.pause, waitUntil);
        return;
      }
    }
  };
}

/**
 * Runs, hands off and commits one chunk. Returns how many of its records were
 * settled (all, unless one was deferred) and, if one was, when to come back.
 */
async function settleChunk(
  opts: BatchHandlerOptions,
  payload: BatchPayload,
  source: ChunkSource,
  fullChunk: readonly ConsumedRecord[],
): Promise<{ count: number; deferUntilMs?: number }> {
  const heartbeat = () => payload.heartbeat();
  let all: RecordOutcome[];
  try {
    all = await opts.run(source, fullChunk, heartbeat);
  } catch (e) {
    throw noteBatchFailure(opts, source, fullChunk, e);
  }
  const firstDeferred = all.findIndex((o) => o.kind === 'defer');
  const deferred = firstDeferred < 0 ? undefined : (all[firstDeferred] as Extract<RecordOutcome, { kind: 'defer' }>);
  const chunk = deferred ? fullChunk.slice(0, firstDeferred) : fullChunk;
  const outcomes = deferred ? all.slice(0, firstDeferred) : all;
  const result = { count: chunk.length, ...(deferred ? { deferUntilMs: deferred.untilMs } : {}) };
  if (chunk.length === 0) return result;
  await handOffAndCommit(opts, payload, source, chunk, outcomes);
  return result;
}

/** The next run of due records, at most `max`; stops at the first record that is not due yet. */
export function takeDueChunk(
  messages: readonly ConsumedRecord[],
  from: number,
  max: number,
  dueAtMs: ((m: ConsumedRecord) => number) | undefined,
  nowMs: number,
): { chunk: ConsumedRecord[]; waitUntilMs?: number } {
  const chunk: ConsumedRecord[] = [];
  for (let i = from; i < messages.length && chunk.length < max; i++) {
    const m = messages[i] as ConsumedRecord;
    const due = dueAtMs?.(m);
    if (due !== undefined && due > nowMs) return { chunk, waitUntilMs: due };
    chunk.push(m);
  }
  return { chunk };
}
