import type { ConsumedRecord } from '../../kafka/index.ts';
import { startRetrySchedule } from '../failures/backoff.ts';
import { decodeStage } from './decodeStage.ts';
import { emitStage } from './emitStage.ts';
import { forwardStage } from './forwardStage.ts';
import { eventLogFields } from './logFields.ts';
import { describeError } from '../failures/PipelineError.ts';
import type { ChunkSource, PipelineDeps, RecordOutcome, Slot } from './pipelineTypes.ts';
import { readKey, readStage } from './readStage.ts';
import { writeStage } from './writeStage.ts';

/**
 * Runs one chunk of records through the processor path: decode → validate →
 * forward the records of other partitions' routing keys → batched point reads
 * → `process` → writes → final writes → follow-ups, then the emits of the
 * whole chunk. Returns one outcome per record, in order; the caller hands
 * failures to repair/DLQ and commits. Throws PipelineError BATCH_RETRY
 * (re-deliver the chunk) or FATAL.
 *
 * The reads of a round happen before any of its writes, so an event does not
 * see the writes of earlier events of its round; processors must not depend
 * on that (LWW makes the final state order-independent; see the cascade's
 * settle time in docs/architecture.md §5). The exception are `exclusive`
 * reads: an event that asks for a cell an earlier event of the chunk asked
 * for exclusively (or for a cell such an event asks for) waits for the next
 * round, which starts after the earlier round's writes landed.
 */
export async function runPipeline<E>(
  deps: PipelineDeps<E>,
  source: ChunkSource,
  messages: readonly ConsumedRecord[],
  heartbeat: () => Promise<void>,
): Promise<RecordOutcome[]> {
  const slots: Slot<E>[] = messages.map((message) => ({ message }));
  await decodeStage(deps, source, slots);
  const soleWriter = await forwardStage(deps, source, slots);
  for (let round = slots; round.length > 0; ) {
    const { now, later } = splitRound(deps, round);
    await runRound(deps, source, now, soleWriter, heartbeat);
    round = later;
  }
  await emitStage(deps, source, slots, startRetrySchedule(deps.retry, deps.clock, heartbeat));
  return slots.map((slot) => keyedForRepair(deps, slot, slot.outcome ?? { kind: 'done' }));
}

/**
 * A repair outcome carries the event's routing key: a record that came with
 * another key (or none) would otherwise land on a repair partition that
 * neither the src's consumer (RepairWatch) nor the read-your-writes gate watches.
 */
function keyedForRepair<E>(deps: PipelineDeps<E>, slot: Slot<E>, outcome: RecordOutcome): RecordOutcome {
  if (outcome.kind !== 'repair' || slot.event === undefined || deps.processor.routingKey === undefined) return outcome;
  const routingKey = deps.processor.routingKey(slot.event);
  return routingKey === undefined ? outcome : { ...outcome, routingKey };
}

async function runRound<E>(deps: PipelineDeps<E>, source: ChunkSource, slots: Slot<E>[], soleWriter: ReadonlyMap<Slot<E>, boolean>, heartbeat: () => Promise<void>): Promise<void> {
  const reads = await readStage(deps, source, slots, startRetrySchedule(deps.retry, deps.clock, heartbeat));
  const wallClockMicros = deps.clock.nowMicros();
  for (const [slot, results] of reads) {
    try {
      slot.output = deps.processor.process(slot.event as E, results, { wallClockMicros, soleWriter: soleWriter.get(slot) === true });
    } catch (e) {
      slot.outcome = { kind: 'dead-letter', reason: 'processor_error', error: describeError(e) };
      deps.logger.error({ ...eventLogFields(source, slot, deps), err: e }, 'processor threw; event dead-lettered');
    }
  }
  await writeStage(deps, source, slots, startRetrySchedule(deps.retry, deps.clock, heartbeat));
}

/**
 * The live slots that can run in one round (`now`), in order, and the rest:
 * a slot goes `later` when one of its cells was read exclusively by an
 * earlier slot of this round, or is read by a slot already put `later` (so
 * events of one cell keep their order). A slot whose reads() throws runs now
 * (readStage dead-letters it).
 */
function splitRound<E>(deps: PipelineDeps<E>, slots: readonly Slot<E>[]): { now: Slot<E>[]; later: Slot<E>[] } {
  const now: Slot<E>[] = [];
  const later: Slot<E>[] = [];
  const exclusive = new Set<string>();
  const deferred = new Set<string>();
  for (const slot of slots) {
    if (slot.outcome !== undefined || slot.event === undefined) continue;
    let requests;
    try {
      requests = slot.reads ?? (slot.reads = deps.processor.reads(slot.event));
    } catch {
      now.push(slot);
      continue;
    }
    const keys = (slot.readKeys ??= requests.map(readKey));
    const waits = keys.some((k) => deferred.has(k) || exclusive.has(k));
    if (waits) {
      later.push(slot);
      keys.forEach((k, i) => requests[i]?.exclusive === true && deferred.add(k));
      continue;
    }
    now.push(slot);
    keys.forEach((k, i) => requests[i]?.exclusive === true && exclusive.add(k));
  }
  return { now, later };
}
