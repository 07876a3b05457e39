import { compareBytes } from './compareBytes.ts';
import type { Mutation } from './TwoLevelMapStore.ts';

export interface TimedKey {
  readonly key: Uint8Array;
  readonly writeTime: bigint;
}

export interface TimedKeyValue extends TimedKey {
  readonly value: Uint8Array;
}

/** All writes to one (namespace, id), ready to execute in any order. */
export interface PartitionWrites {
  readonly namespace: string;
  readonly id: string;
  /** Sorted by key, then write time. */
  readonly deletions: readonly TimedKey[];
  /** Sorted by key, then write time. */
  readonly additions: readonly TimedKeyValue[];
  /** Indexes into the input of the mutations folded into this group. */
  readonly mutationIndexes: readonly number[];
}

/**
 * Groups mutations per (namespace, id) and makes "deletions before
 * additions" hold on a last-write-wins store (JanusGraph `Mutation.consolidate`):
 *
 * - A deletion of a key that is also added at the same write time is dropped.
 *   This is needed, not an optimisation: sent as-is, the tombstone would win
 *   the tie and the key would end up deleted.
 * - Duplicate deletions (same key and write time) collapse into one.
 * - Two additions of one key at the same write time collapse into the one
 *   with the greater value bytes, which is what the store's tie rule would
 *   keep anyway, so `mutateMany` equals issuing the writes one by one.
 *
 * Writes at different write times are all kept; their timestamps decide.
 * Pure: inputs are not modified and the output shares their buffers.
 */
export function consolidateMutations(mutations: readonly Mutation[]): PartitionWrites[] {
  const groups = new Map<string, GroupBuilder>();
  mutations.forEach((m, index) => {
    const groupKey = `${m.namespace}\u0000${m.id}`;
    let group = groups.get(groupKey);
    if (group === undefined) {
      group = { namespace: m.namespace, id: m.id, deletions: new Map(), additions: new Map(), indexes: [] };
      groups.set(groupKey, group);
    }
    group.indexes.push(index);
    for (const key of m.deletions) group.deletions.set(cellId(key, m.writeTime), { key, writeTime: m.writeTime });
    for (const { key, value } of m.additions) {
      const id = cellId(key, m.writeTime);
      const existing = group.additions.get(id);
      if (existing === undefined || compareBytes(value, existing.value) > 0) {
        group.additions.set(id, { key, value, writeTime: m.writeTime });
      }
    }
  });
  return [...groups.values()].map(finishGroup);
}

interface GroupBuilder {
  readonly namespace: string;
  readonly id: string;
  readonly deletions: Map<string, TimedKey>;
  readonly additions: Map<string, TimedKeyValue>;
  readonly indexes: number[];
}

function finishGroup(g: GroupBuilder): PartitionWrites {
  const deletions = [...g.deletions.entries()].filter(([id]) => !g.additions.has(id)).map(([, d]) => d);
  return {
    namespace: g.namespace,
    id: g.id,
    deletions: deletions.sort(byKeyThenTime),
    additions: [...g.additions.values()].sort(byKeyThenTime),
    mutationIndexes: g.indexes,
  };
}

function cellId(key: Uint8Array, writeTime: bigint): string {
  return `${Buffer.from(key).toString('hex')}@${writeTime}`;
}

function byKeyThenTime(a: TimedKey, b: TimedKey): number {
  return compareBytes(a.key, b.key) || (a.writeTime < b.writeTime ? -1 : a.writeTime > b.writeTime ? 1 : 0);
}
