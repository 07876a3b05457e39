import { bytesEqual, type Cell, type Mutation, type TwoLevelMapStore } from '../../sinks/store/index.ts';
import { mapBoundedOrThrow } from '../../sinks/store/mapBounded.ts';
import type { MirrorBucket, MirrorLogic, RecountLogic, RecountTarget } from './createRecounter.ts';
import { cellsOf, settleCount, type Tally } from './settleCount.ts';

const EMPTY = new Uint8Array(0);
/** Buckets of one target settled at once. */
const BUCKET_CONCURRENCY = 8;

type Bucket = MirrorBucket;

/**
 * The delta recount of one target (docs/architecture.md §5 "Counts"): the
 * mirror keeps one flag per source cell (a copy of the cell at the cell's own
 * write time, so LWW makes it converge to the source whoever writes it and in
 * whatever order), in buckets, buckets in groups. A round copies the cells its
 * marks name (one getKeys), recounts just their buckets from the flags, sums
 * those buckets' groups, and sums the group counts into the target's count;
 * each count is settled like a full recount (settleCount). Cost: the marked
 * keys, their buckets, their groups' bucket counts and the group counts, not
 * the source partition. A target without the mirror's marker (never
 * mirrored, or counted in full since) or a mark that names no key is mirrored in
 * full once, and the marker written after.
 */
export async function recountByDelta(
  store: TwoLevelMapStore,
  logic: RecountLogic & { readonly mirror: MirrorLogic },
  target: RecountTarget,
  markKeys: readonly Uint8Array[],
  pageSize: number,
  t0: bigint,
): Promise<void> {
  const m = logic.mirror;
  const id = target.result.id;
  const changed = markKeys.map((k) => m.changedKey(k));
  const named = changed.filter((k): k is Uint8Array => k !== undefined);
  // The marker is read with the first page of flags (same partition, one query).
  const copied = named.length === changed.length ? await mirrorKeys(store, logic, target, distinct(named), pageSize) : undefined;
  const marker = copied === undefined ? await store.namespace(m.namespace).get(id, m.markerKey(target)) : copied.marker;
  const buckets = copied !== undefined && marker !== undefined ? copied.buckets : await mirrorAll(store, logic, target, pageSize);
  const sum = (prefix: Uint8Array, result: Tally['result']): Tally => ({ source: { namespace: m.namespace, id, prefix }, result, weigh: (cell) => m.decodeCount(cell.value), encode: logic.encodeCount });
  await mapBoundedOrThrow([...buckets.values()], BUCKET_CONCURRENCY, (b) => settleCount(store, bucketTally(logic, target, b), pageSize, t0));
  const groups = [...new Map([...buckets.values()].map((b) => [Buffer.from(b.group.countKey).toString('hex'), b.group])).values()];
  await mapBoundedOrThrow(groups, BUCKET_CONCURRENCY, (g) => settleCount(store, sum(g.bucketsPrefix, { namespace: m.namespace, id, key: g.countKey }), pageSize, t0));
  const total = sum(m.groupsPrefix(target), target.result);
  const written = await settleCount(store, total, pageSize, t0);
  // After the count that covers the full mirror: a full recount deletes the marker at its own (earlier) count's time.
  if (marker === undefined) await store.mutateMany([{ namespace: m.namespace, id, writeTime: written, deletions: [], additions: [{ key: m.markerKey(target), value: EMPTY }] }]);
}

function bucketTally(logic: RecountLogic & { readonly mirror: MirrorLogic }, target: RecountTarget, bucket: Bucket): Tally {
  const { namespace } = logic.mirror;
  return {
    source: { namespace, id: target.result.id, prefix: bucket.flagsPrefix },
    result: { namespace, id: target.result.id, key: bucket.countKey },
    weigh: (cell) => (logic.counts(cell) ? 1n : 0n),
    encode: logic.encodeCount,
  };
}

/** Copies the named source cells into their flags (one getKeys each side per page); returns their buckets and the marker. */
async function mirrorKeys(
  store: TwoLevelMapStore,
  logic: RecountLogic & { readonly mirror: MirrorLogic },
  target: RecountTarget,
  keys: readonly Uint8Array[],
  pageSize: number,
): Promise<{ buckets: Map<string, Bucket>; marker: Cell | undefined }> {
  const m = logic.mirror;
  const id = target.result.id;
  const buckets = new Map<string, Bucket>();
  let marker: Cell | undefined;
  for (let at = 0; at < keys.length; at += pageSize) {
    const page = keys.slice(at, at + pageSize);
    const flagKeys = page.map((k) => m.flagKey(target, k));
    const [cells, read] = await Promise.all([
      store.namespace(target.source.namespace).getKeys(target.source.id, page),
      store.namespace(m.namespace).getKeys(id, at === 0 ? [...flagKeys, m.markerKey(target)] : flagKeys),
    ]);
    if (at === 0) marker = read[flagKeys.length];
    const flags = read.slice(0, flagKeys.length);
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
  return { buckets, marker };
}

/** Copies every source cell into its flag (page by page); returns every bucket. */
async function mirrorAll(store: TwoLevelMapStore, logic: RecountLogic & { readonly mirror: MirrorLogic }, target: RecountTarget, pageSize: number): Promise<Map<string, Bucket>> {
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
