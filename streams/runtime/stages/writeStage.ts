import { writeWaves, type FollowUpWrite } from '../../../processors/index.ts';
import type { Mutation } from '../../../sinks/store/index.ts';
import type { RetrySchedule } from '../failures/backoff.ts';
import { executeWrites, type WriteFailure } from './executeWrites.ts';
import { eventLogFields } from './logFields.ts';
import { describeError } from '../failures/PipelineError.ts';
import type { ChunkSource, PipelineDeps, Slot } from './pipelineTypes.ts';

/**
 * Executes the writes of every live event of the chunk in one `mutateMany`
 * (retried within the schedule), then — only for events whose writes all
 * landed — each of their later waves the same way, then their follow-ups, stamped with the wall clock read after the
 * writes were acknowledged (see ProcessorOutput.followUps). ClearingMutations
 * go through `mutateMany` like any write: the port applies `clear` per
 * mutation, so merging the events of a chunk into one call gives the same
 * state as writing them one by one (sinks/store `Mutation.clear`). An event with a
 * failed write or follow-up gets a repair outcome naming the namespaces, or a
 * dead-letter one when the store refuses it for good.
 */
export async function writeStage<E>(deps: PipelineDeps<E>, source: ChunkSource, slots: Slot<E>[], schedule: RetrySchedule): Promise<void> {
  const wavesOf = new Map(slots.map((slot) => [slot, slot.output === undefined ? [] : writeWaves(slot.output)] as const));
  const waves = Math.max(0, ...[...wavesOf.values()].map((w) => w.length));
  for (let wave = 0; wave < waves; wave++) {
    await writeAll(deps, source, slots, schedule, (slot) => wavesOf.get(slot)?.[wave] ?? []);
  }
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
  const mutations: Mutation[] = [];
  const owners: number[] = [];
  slots.forEach((slot, owner) => {
    if (slot.outcome !== undefined) return;
    for (const m of mutationsOf(slot)) {
      mutations.push(m);
      owners.push(owner);
    }
  });
  if (mutations.length === 0) return;
  deps.metrics.count('mutations', mutations.length);
  const failures = await executeWrites(deps.store, mutations, owners, schedule, () => deps.metrics.count('retries'));

  const bySlot = new Map<number, { namespaces: string[]; failures: WriteFailure[] }>();
  for (const [i, failure] of failures) {
    const owner = owners[i] as number;
    let entry = bySlot.get(owner);
    if (entry === undefined) bySlot.set(owner, (entry = { namespaces: [], failures: [] }));
    entry.namespaces.push((mutations[i] as Mutation).namespace);
    entry.failures.push(failure);
  }
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

function stamped(f: FollowUpWrite, writeTime: bigint): Mutation {
  return { namespace: f.namespace, id: f.id, writeTime, deletions: f.deletions, additions: f.additions };
}
