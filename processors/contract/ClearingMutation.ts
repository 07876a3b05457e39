import type { Mutation } from '../../sinks/store/TwoLevelMapStore.ts';

/**
 * A clear: every cell of the partition (or, with `clearPrefix`, every cell
 * whose key starts with it) written at <= `writeTime` is hidden, including
 * cells that arrive later; cells written later survive. It is how the fan-out
 * says "clear the property bag" (REMOVE_PROPERTIES with no keys, node
 * removals) without reading the bag's keys; `mutateMany` executes it natively
 * (`Mutation.clear`). It carries no deletions or additions, so its tombstone
 * stays at `writeTime` and wins ties (a clear that also adds is lowered to
 * T-1 by the port). Build one with `clearPartition`.
 */
export interface ClearingMutation extends Mutation {
  readonly clear: true;
  readonly deletions: readonly [];
  readonly additions: readonly [];
}

/** A clear of partition `id`, or only of its keys starting with `prefix` (a range tombstone, `Mutation.clearPrefix`). */
export function clearPartition(namespace: string, id: string, writeTime: bigint, prefix?: Uint8Array): ClearingMutation {
  return { namespace, id, writeTime, deletions: [], additions: [], clear: true, ...(prefix === undefined ? {} : { clearPrefix: prefix }) };
}

/** True for a write the runtime must execute as a partition clear (see `ClearingMutation`). */
export function isClearingMutation(m: Mutation): m is ClearingMutation {
  return (m as { readonly clear?: unknown }).clear === true;
}
