import { bytesEqual, type Cell, type Mutation, type TwoLevelMapStore } from '../../../sinks/store/index.ts';
import type { MirrorBucket, MirrorLogic, RecountLogic, RecountTarget } from './createRecounter.ts';
import { cellsOf, settleCount, type Tally } from './settleCount.ts';
import { settlePrefixCounts } from './settlePrefixCounts.ts';

const EMPTY = new Uint8Array(0);

type Bucket = MirrorBucket;
/** A recount logic with its mirror (delta mode). */
export type MirroredLogic = RecountLogic & { readonly mirror: MirrorLogic };

/** The count of a target's whole source (every cell that `logic.counts`). */
export function sourceTally(logic: RecountLogic, target: RecountTarget): Tally {
  return { source: target.source, result: target.result, weigh: (cell) => (logic.counts(cell) ? 1n : 0n), encode: logic.encodeCount };
}

/**
 * The delta recount of one mirrored target (docs/architecture.md §5
 * "Counts"): the mirror keeps one flag per source cell (a copy of the cell at
 * the cell's own write time, so LWW makes it converge to the source whoever
 * writes it and in whatever order), in buckets, buckets in groups. A round
 * copies the cells its marks name (one getKeys), recounts just their buckets
 * from the flags, sums those buckets' groups, and sums the group counts into
 * the target's count; each count is settled like a full recount
 * (settleCount). Cost: the marked keys, their buckets, their groups' bucket
 * counts and the group counts, not the source partition.
 *
 * `mirrored`: the marker was there when the round read it (probeTargets). A
 * target without it (never mirrored, or counted in full since), or whose
 * marks name no key, is mirrored in full once, and the marker written after
 * the count. Small targets without the marker never get here: they are
 * counted from their source (countDirectly).
 */
export async function recountByDelta(store: TwoLevelMapStore, logic: MirroredLogic, target: RecountTarget, markKeys: readonly Uint8Array[], pageSize: number, t0: bigint, mirrored: boolean): Promise<void> {
  const m = logic.mirror;
  const changed = markKeys.map((k) => m.changedKey(k));
  const named = changed.filter((k): k is Uint8Array => k !== undefined);
  const keys = named.length === changed.length ? distinct(named) : undefined;
  const buckets = mirrored && keys !== undefined ? await mirrorKeys(store, logic, target, keys, pageSize) : await mirrorAll(store, logic, target, pageSize);
  // Unmirrored, the count is always written: the marker goes at its write time, after the full recount that deleted it.
  const written = await settleBuckets(store, logic, target, buckets, pageSize, t0, !mirrored);
  // After the count that covers the full mirror: a full recount deletes the marker at its own (earlier) count's time.
  if (!mirrored) await store.mutateMany([{ namespace: m.namespace, id: target.result.id, writeTime: written, deletions: [], additions: [{ key: m.markerKey(target), value: EMPTY }] }]);
}

/** Recounts `buckets` from their flags, their groups from the bucket counts (each level in one batch), and the target from the group counts; returns the target count's write time. */
async function settleBuckets(store: TwoLevelMapStore, logic: MirroredLogic, target: RecountTarget, buckets: Map<string, Bucket>, pageSize: number, t0: bigint, alwaysWriteCount: boolean): Promise<bigint> {
  const m = logic.mirror;
  const mirror = { namespace: m.namespace, id: target.result.id };
  const sumCounts = (cell: Cell) => m.decodeCount(cell.value);
  await settlePrefixCounts(store, {
    source: mirror,
    result: mirror,
    counts: [...buckets.values()].map((b) => ({ prefix: b.flagsPrefix, key: b.countKey })),
    weigh: (cell) => (logic.counts(cell) ? 1n : 0n),
    encode: logic.encodeCount,
  }, pageSize, t0);
  const groups = [...new Map([...buckets.values()].map((b) => [Buffer.from(b.group.countKey).toString('hex'), b.group])).values()];
  await settlePrefixCounts(store, { source: mirror, result: mirror, counts: groups.map((g) => ({ prefix: g.bucketsPrefix, key: g.countKey })), weigh: sumCounts, encode: logic.encodeCount }, pageSize, t0);
  return settleCount(store, { source: { ...mirror, prefix: m.groupsPrefix(target) }, result: target.result, weigh: sumCounts, encode: logic.encodeCount }, pageSize, t0, alwaysWriteCount);
}

/** Copies the named source cells into their flags (one getKeys each side per page); returns their buckets. */
async function mirrorKeys(store: TwoLevelMapStore, logic: MirroredLogic, target: RecountTarget, keys: readonly Uint8Array[], pageSize: number): Promise<Map<string, Bucket>> {
  const m = logic.mirror;
  const id = target.result.id;
  const buckets = new Map<string, Bucket>();
  for (let at = 0; at < keys.length; at += pageSize) {
    const page = keys.slice(at, at + pageSize);
    const flagKeys = page.map((k) => m.flagKey(target, k));
    const [cells, flags] = await Promise.all([store.namespace(target.source.namespace).getKeys(target.source.id, page), store.namespace(m.namespace).getKeys(id, flagKeys)]);
    const writes: Mutation[] = [];
    page.forEach((key, i) => {
      addBucket(buckets, m.bucketOf(target, key));
      const cell = cells[i];
      const flag = flags[i];
      const flagKey = flagKeys[i] as Uint8Array;
      // Source cells are never deleted (REMOVED links stay); if one is missing, drop exactly the flag version read.
      if (cell === undefined) return void (flag !== undefined && writes.push({ namespace: m.namespace, id, writeTime: flag.writeTime, deletions: [flagKey], additions: [] }));
      if (flag !== undefined && flag.writeTime === cell.writeTime && bytesEqual(flag.value, cell.value)) return;
      writes.push(flagWrite(m, id, flagKey, cell));
    });
    if (writes.length > 0) await store.mutateMany(writes);
  }
  return buckets;
}

/** Copies every source cell into its flag (page by page); returns every bucket. */
async function mirrorAll(store: TwoLevelMapStore, logic: MirroredLogic, target: RecountTarget, pageSize: number): Promise<Map<string, Bucket>> {
  const m = logic.mirror;
  const id = target.result.id;
  const buckets = new Map<string, Bucket>();
  let writes: Mutation[] = [];
  for await (const cell of cellsOf(store, target.source, pageSize)) {
    addBucket(buckets, m.bucketOf(target, cell.key));
    writes.push(flagWrite(m, id, m.flagKey(target, cell.key), cell));
    if (writes.length >= pageSize) {
      await store.mutateMany(writes);
      writes = [];
    }
  }
  if (writes.length > 0) await store.mutateMany(writes);
  return buckets;
}

/** The flag is the source cell's value at the source cell's write time: LWW keeps the newest, as it does for the source. */
function flagWrite(m: MirrorLogic, id: string, flagKey: Uint8Array, cell: Cell): Mutation {
  return { namespace: m.namespace, id, writeTime: cell.writeTime, deletions: [], additions: [{ key: flagKey, value: cell.value }] };
}

function addBucket(buckets: Map<string, Bucket>, bucket: Bucket): void {
  buckets.set(Buffer.from(bucket.countKey).toString('hex'), bucket);
}

function distinct(keys: readonly Uint8Array[]): Uint8Array[] {
  return [...new Map(keys.map((k) => [Buffer.from(k).toString('hex'), k])).values()];
}
