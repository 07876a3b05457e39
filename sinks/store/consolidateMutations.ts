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
  /**
   * Times of whole-partition deletions (partition tombstones), ascending and
   * distinct: each hides every cell of the partition written at <= it. These
   * are the times to write, already lowered from T to T-1 where the group
   * also adds at T (see `Mutation.clear`).
   */
  readonly clears: readonly bigint[];
  /** Sorted by key, then write time. */
  readonly deletions: readonly TimedKey[];
  /** Sorted by key, then write time. */
  readonly additions: readonly TimedKeyValue[];
  /** Indexes into the input of the mutations folded into this group. */
  readonly mutationIndexes: readonly number[];
}

/**
 * Groups mutations per (namespace, id) and makes "clear, then deletions, then
 * additions" hold on a last-write-wins store (JanusGraph `Mutation.consolidate`):
 *
 * - A deletion of a key that is also added at the same write time is dropped.
 *   This is needed, not an optimisation: sent as-is, the tombstone would win
 *   the tie and the key would end up deleted.
 * - Likewise a clear at T of a partition that the group also adds to at T is
 *   written at T-1 (and dropped when T is 0: nothing is written before 0),
 *   so it hides everything older than the additions but not the additions.
 *   Clears are kept per write time, deduplicated; every one is written, even
 *   though the greatest one alone would give the same state.
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
      group = { namespace: m.namespace, id: m.id, clears: new Set(), deletions: new Map(), additions: new Map(), indexes: [] };
      groups.set(groupKey, group);
    }
    group.indexes.push(index);
    if (m.clear === true) group.clears.add(m.writeTime);
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
  /** Write times of the group's clears, as given (not yet lowered). */
  readonly clears: Set<bigint>;
  readonly deletions: Map<string, TimedKey>;
  readonly additions: Map<string, TimedKeyValue>;
  readonly indexes: number[];
}

function finishGroup(g: GroupBuilder): PartitionWrites {
  const deletions = [...g.deletions.entries()].filter(([id]) => !g.additions.has(id)).map(([, d]) => d);
  const addedAt = new Set([...g.additions.values()].map((a) => a.writeTime));
  const clears = new Set<bigint>();
  for (const t of g.clears) {
    const at = addedAt.has(t) ? t - 1n : t;
    if (at >= 0n) clears.add(at);
  }
  return {
    namespace: g.namespace,
    id: g.id,
    clears: [...clears].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
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
