import { classifyFailure } from '../failures/classifyFailure.ts';
import type { BatchHandlerOptions, BatchPayload } from './createBatchHandler.ts';
import { HEADERS, headerString, type DlqReason } from '../failures/headers.ts';
import { describeError, PipelineError } from '../failures/PipelineError.ts';
import type { ChunkSource, ConsumedRecord, OutRecord, RecordOutcome } from './pipelineTypes.ts';
import type { RuntimeMetrics } from '../runtimeMetrics.ts';

/**
 * Produces a run chunk's repair and DLQ records, waits for their acks, then
 * resolves and commits the chunk's last offset. A failed hand-off commits
 * nothing: the chunk is re-delivered (BATCH_RETRY) or the consumer stops (FATAL).
 */
export async function handOffAndCommit(
  opts: BatchHandlerOptions,
  payload: BatchPayload,
  source: ChunkSource,
  chunk: readonly ConsumedRecord[],
  outcomes: readonly RecordOutcome[],
): Promise<void> {
  const now = opts.clock.nowMs();
  const routed = chunk.map((message, i) => opts.route(message, { ...source, offset: message.offset }, outcomes[i] as RecordOutcome, now));
  const handoff = routed.filter((r): r is OutRecord => r !== undefined);
  if (handoff.length > 0) {
    try {
      await opts.publisher.publish(handoff);
    } catch (e) {
      const decision = classifyFailure('handoff', e);
      throw noteBatchFailure(opts, source, chunk, new PipelineError(decision === 'fatal' ? 'FATAL' : 'BATCH_RETRY', `hand-off to repair/DLQ failed: ${describeError(e)}`, { cause: e }));
    }
  }
  const last = chunk[chunk.length - 1] as ConsumedRecord;
  payload.resolveOffset(last.offset);
  await payload.commitOffsetsIfNecessary({
    topics: [{ topic: source.topic, partitions: [{ partition: source.partition, offset: (BigInt(last.offset) + 1n).toString() }] }],
  });
  tally(opts.metrics, routed);
  await payload.heartbeat();
}

/** Counts settled records by where they went (the router may turn a repair into a DLQ record). */
function tally(metrics: RuntimeMetrics, routed: readonly (OutRecord | undefined)[]): void {
  metrics.count('records', routed.length);
  metrics.count('chunks');
  for (const r of routed) {
    const reason = r === undefined ? undefined : headerString(r.headers, HEADERS.dlqReason);
    if (r === undefined) metrics.count('done');
    else if (reason === undefined) metrics.count('sentToRepair');
    else metrics.deadLettered(reason as DlqReason);
  }
}

export function noteBatchFailure(opts: BatchHandlerOptions, source: ChunkSource, chunk: readonly ConsumedRecord[], e: unknown): unknown {
  const range = { ...source, first_offset: chunk[0]?.offset, last_offset: chunk[chunk.length - 1]?.offset };
  if (!PipelineError.is(e)) {
    // Not a pipeline decision: a kafkajs error from heartbeat() during a retry back-off (a rebalance, a
    // lost membership) or a bug. kafkajs decides by its own `retriable` flag (rebalances re-join, a
    // TypeError stops the consumer); the chunk is not committed either way.
    opts.logger.warn({ ...range, err: e }, 'chunk interrupted; not committed');
    return e;
  }
  if (e.code === 'BATCH_RETRY') {
    opts.metrics.count('batchRetries');
    opts.logger.warn({ ...range, err: e }, 'chunk not committed; kafkajs will re-deliver it');
    return e;
  }
  opts.logger.fatal({ ...range, err: e }, 'fatal pipeline failure; consumer stops without committing');
  return e;
}

