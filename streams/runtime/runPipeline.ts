import type { KafkaMessage } from 'kafkajs';
import { startRetrySchedule } from './backoff.ts';
import { decodeStage } from './decodeStage.ts';
import { emitStage } from './emitStage.ts';
import { eventLogFields } from './logFields.ts';
import { describeError } from './PipelineError.ts';
import type { ChunkSource, PipelineDeps, RecordOutcome, Slot } from './pipelineTypes.ts';
import { readStage } from './readStage.ts';
import { writeStage } from './writeStage.ts';

/**
 * Runs one chunk of records through the processor path: decode → validate →
 * batched point reads → `process` → writes → follow-ups → emits. Returns one
 * outcome per record, in order; the caller hands failures to repair/DLQ and
 * commits. Throws PipelineError BATCH_RETRY (re-deliver the chunk) or FATAL.
 *
 * The reads of a chunk happen before any of its writes, so an event does not
 * see the writes of earlier events in the same chunk. Processors must not
 * depend on that (LWW makes the final state order-independent; see the
 * cascade's settle time in docs/architecture.md §5).
 */
export async function runPipeline<E>(
  deps: PipelineDeps<E>,
  source: ChunkSource,
  messages: readonly KafkaMessage[],
  heartbeat: () => Promise<void>,
): Promise<RecordOutcome[]> {
  const slots: Slot<E>[] = messages.map((message) => ({ message }));
  await decodeStage(deps, source, slots);
  const reads = await readStage(deps, source, slots, startRetrySchedule(deps.retry, deps.clock, heartbeat));

  const ctx = { wallClockMicros: deps.clock.nowMicros() };
  for (const [slot, results] of reads) {
    try {
      slot.output = deps.processor.process(slot.event as E, results, ctx);
    } catch (e) {
      slot.outcome = { kind: 'dead-letter', reason: 'processor_error', error: describeError(e) };
      deps.logger.error({ ...eventLogFields(source, slot, deps), err: e }, 'processor threw; event dead-lettered');
    }
  }

  const schedule = startRetrySchedule(deps.retry, deps.clock, heartbeat);
  await writeStage(deps, source, slots, schedule);
  await emitStage(deps, source, slots, schedule);
  return slots.map((slot) => slot.outcome ?? { kind: 'done' });
}
