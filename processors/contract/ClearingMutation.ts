import type { Mutation } from '../../sinks/store/TwoLevelMapStore.ts';

/**
 * A write that deletes a whole partition at `writeTime`: every cell written at
 * <= `writeTime` is hidden, including cells that arrive later; cells written
 * later survive. It is how the fan-out expresses "clear the property bag"
 * (REMOVE_PROPERTIES with no keys, and node removals), which `Mutation`
 * cannot say: its deletions name keys, and a bag's keys are unknown without a
 * read.
 *
 * Runtime obligation: execute it as a partition tombstone at `writeTime`,
 * i.e. `store.namespace(namespace).keepNewest(id, 0, writeTime)`, alongside
 * the other writes (order does not matter, each carries its own time; a
 * retry is safe). On a port without `Mutation.clear`, passing it to
 * `mutateMany` would run an empty mutation and lose the clear silently. The
 * store port is gaining `Mutation.clear` (work in progress by its owner);
 * once it lands, `mutateMany` executes these natively, with one caveat: that
 * design writes a clear at T-1 when the same `mutateMany` call also adds to
 * the partition at T, so the runtime must not merge the writes of different
 * events into one call, or a SET_PROPERTIES and a bag clear of different
 * events at the same time would resolve by batch composition instead of
 * "the tombstone wins the tie".
 *
 * A clearing mutation carries no deletions or additions: a partition
 * tombstone at T also hides additions at T (tombstones win ties), which would
 * contradict the "deletions before additions" rule of `Mutation`. Build one
 * with `clearPartition`.
 *
 * `clear: true` (required here) narrows the port's optional `clear`, so a
 * ClearingMutation stays a valid `Mutation` either way.
 */
export interface ClearingMutation extends Mutation {
  readonly clear: true;
  readonly deletions: readonly [];
  readonly additions: readonly [];
}

export function clearPartition(namespace: string, id: string, writeTime: bigint): ClearingMutation {
  return { namespace, id, writeTime, deletions: [], additions: [], clear: true };
}

/** True for a write the runtime must execute as a partition clear (see `ClearingMutation`). */
export function isClearingMutation(m: Mutation): m is ClearingMutation {
  return (m as { readonly clear?: unknown }).clear === true;
}
