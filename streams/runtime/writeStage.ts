import { isClearingMutation, type FollowUpWrite } from '../../processors/index.ts';
import type { Mutation } from '../../sinks/store/index.ts';
import type { RetrySchedule } from './backoff.ts';
import { executeClears, type PartitionClear } from './executeClears.ts';
import { executeWrites, type WriteFailure } from './executeWrites.ts';
import { eventLogFields } from './logFields.ts';
import { describeError } from './PipelineError.ts';
import type { ChunkSource, PipelineDeps, Slot } from './pipelineTypes.ts';

/**
 * Executes the writes of every live event of the chunk in one `mutateMany`
 * (retried within the schedule), then — only for events whose writes all
 * landed — their follow-ups, stamped with the wall clock read after the
 * writes were acknowledged (see ProcessorOutput.followUps). An event with a
 * failed write or follow-up gets a repair outcome naming the namespaces, or a
 * dead-letter one when the store refuses it for good.
 */
export async function writeStage<E>(deps: PipelineDeps<E>, source: ChunkSource, slots: Slot<E>[], schedule: RetrySchedule): Promise<void> {
  await writeAll(deps, source, slots, schedule, (slot) => slot.output?.writes ?? []);
  const stamp = deps.clock.nowMicros();
  await writeAll(deps, source, slots, schedule, (slot) => (slot.output?.followUps ?? []).map((f) => stamped(f, stamp)));
}

async function writeAll<E>(
  deps: PipelineDeps<E>,
  source: ChunkSource,
  slots: Slot<E>[],
  schedule: RetrySchedule,
  mutationsOf: (slot: Slot<E>) => readonly Mutation[],
): Promise<void> {
  const writes = splitClears(slots, mutationsOf);
  if (writes.mutations.length + writes.clears.length === 0) return;
  deps.metrics.count('mutations', writes.mutations.length + writes.clears.length);
  const onRetry = () => deps.metrics.count('retries');
  const [mutationFailures, clearFailures] = await Promise.all([
    executeWrites(deps.store, writes.mutations, writes.mutationOwners, schedule, onRetry),
    executeClears(deps.store, writes.clears, deps.readConcurrency, schedule, onRetry),
  ]);

  const bySlot = new Map<number, { namespaces: string[]; failures: WriteFailure[] }>();
  const note = (owner: number, namespace: string, failure: WriteFailure): void => {
    let entry = bySlot.get(owner);
    if (entry === undefined) bySlot.set(owner, (entry = { namespaces: [], failures: [] }));
    entry.namespaces.push(namespace);
    entry.failures.push(failure);
  };
  for (const [i, f] of mutationFailures) note(writes.mutationOwners[i] as number, (writes.mutations[i] as Mutation).namespace, f);
  for (const [i, f] of clearFailures) note(writes.clearOwners[i] as number, (writes.clears[i] as PartitionClear).namespace, f);
  for (const [owner, { namespaces, failures: fs }] of bySlot) {
    const slot = slots[owner] as Slot<E>;
    const rejected = fs.find((f) => f.decision === 'dead-letter');
    const error = `write failed: ${describeError((rejected ?? (fs[0] as WriteFailure)).error)}`;
    slot.outcome = rejected
      ? { kind: 'dead-letter', reason: 'store_rejected', error }
      : { kind: 'repair', failedNamespaces: [...new Set(namespaces)], error };
    deps.logger.warn({ ...eventLogFields(source, slot, deps), failed_namespaces: [...new Set(namespaces)], error }, rejected ? 'write rejected; event dead-lettered' : 'write failed after retries; event sent to repair');
  }
}

/**
 * The live slots' writes, with partition clears taken out to be executed on
 * their own (see executeClears). A clear that comes with additions in the
 * same mutation is written at T-1, as `Mutation.clear` specifies, so the
 * mutation's own additions at T stay visible.
 */
function splitClears<E>(slots: readonly Slot<E>[], mutationsOf: (slot: Slot<E>) => readonly Mutation[]) {
  const mutations: Mutation[] = [];
  const mutationOwners: number[] = [];
  const clears: PartitionClear[] = [];
  const clearOwners: number[] = [];
  slots.forEach((slot, owner) => {
    if (slot.outcome !== undefined) return;
    for (const m of mutationsOf(slot)) {
      if (!isClearingMutation(m)) {
        mutations.push(m);
        mutationOwners.push(owner);
        continue;
      }
      const at = m.additions.length > 0 ? m.writeTime - 1n : m.writeTime;
      if (at >= 0n) {
        clears.push({ namespace: m.namespace, id: m.id, writeTime: at });
        clearOwners.push(owner);
      }
      if (m.additions.length > 0 || m.deletions.length > 0) {
        mutations.push({ namespace: m.namespace, id: m.id, writeTime: m.writeTime, deletions: m.deletions, additions: m.additions });
        mutationOwners.push(owner);
      }
    }
  });
  return { mutations, mutationOwners, clears, clearOwners };
}

function stamped(f: FollowUpWrite, writeTime: bigint): Mutation {
  return { namespace: f.namespace, id: f.id, writeTime, deletions: f.deletions, additions: f.additions };
}
