import { bytesKey } from './cellKey.ts';
import { compareBytes } from './compareBytes.ts';
import type { Mutation } from './TwoLevelMapStore.ts';

export interface TimedKey {
  readonly key: Uint8Array;
  readonly writeTime: bigint;
}

/** A clear of the keys starting with `prefix` (non-empty), hiding cells written at <= `writeTime`. */
export interface PrefixClear {
  readonly prefix: Uint8Array;
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
   * are the times to write, already lowered from T to T-1 where the clearing
   * mutation itself also adds at T (see `Mutation.clear`).
   */
  readonly clears: readonly bigint[];
  /**
   * Range tombstones over the keys with a prefix (`Mutation.clearPrefix`), with
   * the same time rules as `clears`; distinct, ordered by prefix then time.
   */
  readonly prefixClears: readonly PrefixClear[];
  /** Sorted by key, then write time. */
  readonly deletions: readonly TimedKey[];
  /** Sorted by key, then write time. */
  readonly additions: readonly TimedKeyValue[];
  /** Indexes into the input of the mutations folded into this group. */
  readonly mutationIndexes: readonly number[];
}

/**
 * Groups mutations per (namespace, id) so that `mutateMany(ms)` leaves exactly the
 * state of issuing each mutation on its own, in any order (JanusGraph
 * `Mutation.consolidate`, applied per input mutation):
 *
 * - **Within one mutation**, "clear, then deletions, then additions" holds: a
 *   deletion of a key the same mutation adds at its write time is dropped (sent
 *   as-is the tombstone would win the tie), and its clear is written at T-1 when
 *   it also adds (dropped when T is 0: nothing is written before 0).
 * - **Across mutations** nothing is reordered: they are independent facts settled
 *   by last-write-wins, so a deletion (or clear) at T from one mutation still beats
 *   an addition at T from another, exactly as if they had been sent separately.
 *   (Merging two events' writes must never let one event's add cancel another
 *   event's same-time delete.)
 * - Duplicates collapse: equal deletions into one, two additions of one key at one
 *   write time into the greater value bytes (the store's tie rule), and an
 *   addition that a same-time deletion from another mutation beats is not sent.
 *
 * Writes at different write times are all kept; their timestamps decide.
 * Pure: inputs are not modified and the output shares their buffers.
 */
export function consolidateMutations(mutations: readonly Mutation[]): PartitionWrites[] {
  const members = new Map<string, number[]>();
  mutations.forEach((m, index) => {
    const groupKey = `${m.namespace}\u0000${m.id}`;
    const indexes = members.get(groupKey);
    if (indexes === undefined) members.set(groupKey, [index]);
    else indexes.push(index);
  });
  const groups: PartitionWrites[] = [];
  for (const indexes of members.values()) {
    const only = indexes.length === 1 ? (mutations[indexes[0] as number] as Mutation) : undefined;
    groups.push(only !== undefined && only.deletions.length === 0 && only.clear !== true ? additionsOnly(only, indexes) : buildGroup(mutations, indexes));
  }
  return groups;
}

/**
 * The common case, one mutation that only adds: its additions share one write
 * time, so consolidation is sorting by key and keeping the greater value of
 * a key added twice, without the cell maps of the general case.
 */
function additionsOnly(m: Mutation, indexes: number[]): PartitionWrites {
  const sorted = m.additions.map(({ key, value }): TimedKeyValue => ({ key, value, writeTime: m.writeTime })).sort(byKeyThenTime);
  const additions: TimedKeyValue[] = [];
  for (const a of sorted) {
    const last = additions[additions.length - 1];
    if (last === undefined || compareBytes(last.key, a.key) !== 0) additions.push(a);
    else if (compareBytes(a.value, last.value) > 0) additions[additions.length - 1] = a;
  }
  return { namespace: m.namespace, id: m.id, clears: [], prefixClears: [], deletions: [], additions, mutationIndexes: indexes };
}

function buildGroup(mutations: readonly Mutation[], indexes: number[]): PartitionWrites {
  const first = mutations[indexes[0] as number] as Mutation;
  const group: GroupBuilder = { namespace: first.namespace, id: first.id, clears: new Set(), prefixClears: new Map(), deletions: new Map(), additions: new Map(), indexes };
  for (const index of indexes) {
    const m = mutations[index] as Mutation;
    const ownAdds = m.deletions.length === 0 ? undefined : new Set(m.additions.map(({ key }) => cellId(key, m.writeTime)));
    if (m.clear === true) {
      const at = m.additions.length > 0 ? m.writeTime - 1n : m.writeTime;
      const prefix = m.clearPrefix ?? new Uint8Array(0);
      if (at >= 0n && prefix.length === 0) group.clears.add(at);
      else if (at >= 0n) group.prefixClears.set(cellId(prefix, at), { prefix, writeTime: at });
    }
    for (const key of m.deletions) {
      const id = cellId(key, m.writeTime);
      if (ownAdds?.has(id) !== true) group.deletions.set(id, { key, writeTime: m.writeTime });
    }
    for (const { key, value } of m.additions) {
      const id = cellId(key, m.writeTime);
      const existing = group.additions.get(id);
      if (existing === undefined || compareBytes(value, existing.value) > 0) {
        group.additions.set(id, { key, value, writeTime: m.writeTime });
      }
    }
  }
  return finishGroup(group);
}

interface GroupBuilder {
  readonly namespace: string;
  readonly id: string;
  /** Write times of the group's clears, already lowered to T-1 where their own mutation adds at T. */
  readonly clears: Set<bigint>;
  readonly prefixClears: Map<string, PrefixClear>;
  readonly deletions: Map<string, TimedKey>;
  readonly additions: Map<string, TimedKeyValue>;
  readonly indexes: number[];
}

function finishGroup(g: GroupBuilder): PartitionWrites {
  // A same-time tombstone from another mutation wins the tie anyway: skip the add.
  const additions = [...g.additions.entries()].filter(([id]) => !g.deletions.has(id)).map(([, a]) => a);
  return {
    namespace: g.namespace,
    id: g.id,
    clears: [...g.clears].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    prefixClears: [...g.prefixClears.values()].sort((a, b) => byKeyThenTime({ key: a.prefix, writeTime: a.writeTime }, { key: b.prefix, writeTime: b.writeTime })),
    deletions: [...g.deletions.values()].sort(byKeyThenTime),
    additions: additions.sort(byKeyThenTime),
    mutationIndexes: g.indexes,
  };
}

function cellId(key: Uint8Array, writeTime: bigint): string {
  return `${bytesKey(key)}@${writeTime}`;
}

function byKeyThenTime(a: TimedKey, b: TimedKey): number {
  return compareBytes(a.key, b.key) || (a.writeTime < b.writeTime ? -1 : a.writeTime > b.writeTime ? 1 : 0);
}
