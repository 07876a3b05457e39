import { HEADERS } from '../failures/headers.ts';
import { describeError, PipelineError } from '../failures/PipelineError.ts';
import type { ChunkSource, PipelineDeps, Slot } from './pipelineTypes.ts';
import { eventLogFields } from './logFields.ts';

/**
 * Forwards each decoded record whose routing key belongs to another
 * partition of the input (a producer that keyed it otherwise, or partitioned
 * by another hash) to that partition, keyed by the routing key, in one
 * produce; the record is then done here. So every event of one key is applied
 * by one consumer, one chunk after another (ProcessContext.soleWriter, unless
 * the partition has a repair in flight, which re-runs events beside it). A
 * record forwarded once is processed where it lands, never forwarded again
 * (no loop while the partition count changes), and not as sole writer.
 * Returns the slots processed here, each with whether it is its key's sole writer.
 */
export async function forwardStage<E>(deps: PipelineDeps<E>, source: ChunkSource, slots: Slot<E>[]): Promise<Map<Slot<E>, boolean>> {
  const soleWriter = new Map<Slot<E>, boolean>();
  const forwarding: { slot: Slot<E>; key: string }[] = [];
  const routingKey = deps.processor.routingKey;
  // A repair in flight re-runs an event of this partition with fresh reads, racing this consumer: nobody is a sole writer meanwhile.
  let repairing = false;
  try {
    repairing = deps.partitionOfKey !== undefined && routingKey !== undefined && (await deps.repairsPending?.(source.partition)) === true;
  } catch (e) {
    throw new PipelineError('BATCH_RETRY', `reading the repair topic's offsets failed: ${describeError(e)}`, { cause: e });
  }
  for (const slot of slots) {
    if (slot.outcome !== undefined || slot.event === undefined) continue;
    const key = deps.partitionOfKey === undefined ? undefined : routingKey?.(slot.event);
    if (key === undefined || deps.partitionOfKey === undefined) {
      soleWriter.set(slot, false);
      continue;
    }
    let home: number;
    try {
      home = await deps.partitionOfKey(key);
    } catch (e) {
      throw new PipelineError('BATCH_RETRY', `reading the input's partition count failed: ${describeError(e)}`, { cause: e });
    }
    if (home === source.partition) soleWriter.set(slot, !repairing);
    else if (slot.message.headers?.[HEADERS.forwardedFrom] !== undefined) soleWriter.set(slot, false);
    else forwarding.push({ slot, key });
  }
  if (forwarding.length === 0) return soleWriter;
  const records = forwarding.map(({ slot, key }) => ({
    topic: source.topic,
    key,
    value: slot.message.value,
    headers: { ...slot.message.headers, [HEADERS.forwardedFrom]: String(source.partition) },
  }));
  try {
    await deps.publisher.publish(records);
  } catch (e) {
    throw new PipelineError('BATCH_RETRY', `forwarding ${records.length} records to their routing key's partition failed: ${describeError(e)}`, { cause: e });
  }
  deps.metrics.count('forwarded', records.length);
  for (const { slot } of forwarding) {
    slot.outcome = { kind: 'done' };
    deps.logger.debug({ ...eventLogFields(source, slot, deps) }, 'forwarded to its routing key partition');
  }
  return soleWriter;
}
