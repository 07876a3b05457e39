import type { RetrySchedule } from '../failures/backoff.ts';
import { classifyFailure } from '../failures/classifyFailure.ts';
import { eventLogFields } from './logFields.ts';
import { describeError, PipelineError } from '../failures/PipelineError.ts';
import type { ChunkSource, OutRecord, PipelineDeps, Slot } from './pipelineTypes.ts';

/**
 * Encodes and publishes the emits of every event whose writes landed, in one
 * produce (acks=all, idempotent producer). An emit that does not match its
 * schema dead-letters its event; a produce that keeps failing past the retry
 * budget sends every event of it to repair (re-running them re-publishes the
 * same emits: downstream consumers see duplicates, never gaps).
 */
export async function emitStage<E>(deps: PipelineDeps<E>, source: ChunkSource, slots: Slot<E>[], schedule: RetrySchedule): Promise<void> {
  const emitting: { slot: Slot<E>; records: OutRecord[] }[] = [];
  for (const slot of slots) {
    const emits = slot.output?.emits ?? [];
    if (slot.outcome !== undefined || emits.length === 0) continue;
    const settled = await Promise.allSettled(emits.map((emit) => deps.encodeEmit(emit)));
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed === undefined) {
      emitting.push({ slot, records: settled.map((r) => (r as PromiseFulfilledResult<OutRecord>).value) });
      continue;
    }
    const decision = classifyFailure('encode', failed.reason);
    if (decision === 'dead-letter') {
      const error = `emit does not encode: ${describeError(failed.reason)}`;
      slot.outcome = { kind: 'dead-letter', reason: 'emit_rejected', error };
      deps.logger.error({ ...eventLogFields(source, slot, deps), error }, 'emitted event rejected by its schema; event dead-lettered');
      continue;
    }
    throw new PipelineError(decision === 'retry-batch' ? 'BATCH_RETRY' : 'FATAL', `encoding an emit failed: ${describeError(failed.reason)}`, {
      cause: failed.reason,
    });
  }
  if (emitting.length === 0) return;

  const records = emitting.flatMap((e) => e.records);
  for (;;) {
    try {
      await deps.publisher.publish(records);
      deps.metrics.count('emitted', records.length);
      return;
    } catch (e) {
      const decision = classifyFailure('produce', e);
      if (decision === 'fatal') throw new PipelineError('FATAL', `publishing emits failed: ${describeError(e)}`, { cause: e });
      if (decision === 'retry' && (await schedule.wait())) {
        deps.metrics.count('retries');
        continue;
      }
      const topics = [...new Set(records.map((r) => `topic:${r.topic}`))];
      for (const { slot } of emitting) {
        slot.outcome = { kind: 'repair', failedNamespaces: topics, error: `publishing emits failed: ${describeError(e)}` };
        deps.logger.warn({ ...eventLogFields(source, slot, deps), err: e }, 'emits not published; event sent to repair');
      }
      return;
    }
  }
}
