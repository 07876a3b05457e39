import { bytesEqual, type Cell, type Mutation, type TwoLevelMapStore } from '../../sinks/store/index.ts';
import { mapBoundedOrThrow } from '../../sinks/store/mapBounded.ts';
import type { MirrorBucket, MirrorLogic, RecountLogic, RecountTarget } from './createRecounter.ts';
import { cellsOf, settleCount, type Tally } from './settleCount.ts';

const EMPTY = new Uint8Array(0);
/** Buckets of one target settled at once. */
const BUCKET_CONCURRENCY = 8;

type Bucket = MirrorBucket;
type MirroredLogic = RecountLogic & { readonly mirror: MirrorLogic };

export interface DeltaOptions {
  /** Cells per page of source and mirror reads, and keys per getKeys. */
  readonly pageSize: number;
  /** A target without the marker and with at most this many source cells is counted directly from its source. */
  readonly directCountMaxCells: number;
}

/** The count of a target's whole source (every cell that `logic.counts`). */
export function sourceTally(logic: RecountLogic, target: RecountTarget): Tally {
  return { source: target.source, result: target.result, weigh: (cell) => (logic.counts(cell) ? 1n : 0n), encode: logic.encodeCount };
}

/**
 * The delta recount of one target (docs/architecture.md §5 "Counts"): the
 * mirror keeps one flag per source cell (a copy of the cell at the cell's own
 * write time, so LWW makes it converge to the source whoever writes it and in
 * whatever order), in buckets, buckets in groups. A round copies the cells its
 * marks name (one getKeys), recounts just their buckets from the flags, sums
 * those buckets' groups, and sums the group counts into the target's count;
 * each count is settled like a full recount (settleCount). Cost: the marked
 * keys, their buckets, their groups' bucket counts and the group counts, not
 * the source partition.
 *
 * A target without the mirror's marker (never mirrored, or counted in full
 * since) is counted directly from its source while it has at most
 * `directCountMaxCells` cells (a new vertex: three round trips, no mirror),
 * else mirrored in full once and the marker written after; so is a target
 * whose marks name no key. Source cells are never deleted, so once a read
 * finds more than that many, every later read does: a mirror, once written,
 * never misses a change a direct count took the marks of.
 */
export async function recountByDelta(store: TwoLevelMapStore, logic: MirroredLogic, target: RecountTarget, markKeys: readonly Uint8Array[], o: DeltaOptions, t0: bigint): Promise<void> {
  const m = logic.mirror;
  const changed = markKeys.map((k) => m.changedKey(k));
  const named = changed.filter((k): k is Uint8Array => k !== undefined);
  const keys = named.length === changed.length ? distinct(named) : undefined;
  // One round trip: the marker and the first page of marked cells (what a mirrored target needs), the head of the source and the count (what a small one needs).
  const [first, head, previous] = await Promise.all([
    readMarked(store, logic, target, (keys ?? []).slice(0, o.pageSize)),
    store.namespace(target.source.namespace).slice(target.source.id, { limit: o.directCountMaxCells + 1 }),
    store.namespace(target.result.namespace).get(target.result.id, target.result.key),
  ]);
  if (first.marker === undefined && head.pageState === undefined && head.cells.length <= o.directCountMaxCells) {
    const count = head.cells.reduce((n, cell) => n + (logic.counts(cell) ? 1n : 0n), 0n);
    await settleCount(store, sourceTally(logic, target), o.pageSize, t0, { previous, count });
    return;
  }
  const mirrored = first.marker !== undefined && keys !== undefined;
  const buckets = mirrored ? await mirrorKeys(store, logic, target, keys, first, o.pageSize) : await mirrorAll(store, logic, target, o.pageSize);
  const written = await settleBuckets(store, logic, target, buckets, o.pageSize, t0);
  // After the count that covers the full mirror: a full recount deletes the marker at its own (earlier) count's time.
  if (first.marker === undefined) await store.mutateMany([{ namespace: m.namespace, id: target.result.id, writeTime: written, deletions: [], additions: [{ key: m.markerKey(target), value: EMPTY }] }]);
}

/** Recounts `buckets` from their flags, their groups from the bucket counts, and the target from the group counts; returns the target count's write time. */
async function settleBuckets(store: TwoLevelMapStore, logic: MirroredLogic, target: RecountTarget, buckets: Map<string, Bucket>, pageSize: number, t0: bigint): Promise<bigint> {
  const m = logic.mirror;
  const id = target.result.id;
  const sum = (prefix: Uint8Array, result: Tally['result']): Tally => ({ source: { namespace: m.namespace, id, prefix }, result, weigh: (cell) => m.decodeCount(cell.value), encode: logic.encodeCount });
  await mapBoundedOrThrow([...buckets.values()], BUCKET_CONCURRENCY, (b) => settleCount(store, bucketTally(logic, target, b), pageSize, t0));
  const groups = [...new Map([...buckets.values()].map((b) => [Buffer.from(b.group.countKey).toString('hex'), b.group])).values()];
  await mapBoundedOrThrow(groups, BUCKET_CONCURRENCY, (g) => settleCount(store, sum(g.bucketsPrefix, { namespace: m.namespace, id, key: g.countKey }), pageSize, t0));
  return settleCount(store, sum(m.groupsPrefix(target), target.result), pageSize, t0);
}

function bucketTally(logic: MirroredLogic, target: RecountTarget, bucket: Bucket): Tally {
  const { namespace } = logic.mirror;
  return {
    source: { namespace, id: target.result.id, prefix: bucket.flagsPrefix },
    result: { namespace, id: target.result.id, key: bucket.countKey },
    weigh: (cell) => (logic.counts(cell) ? 1n : 0n),
    encode: logic.encodeCount,
  };
}

/** One page of marked keys: their source cells and flags, and (always) the marker. */
interface MarkedPage {
  readonly keys: readonly Uint8Array[];
  readonly cells: readonly (Cell | undefined)[];
  readonly flags: readonly (Cell | undefined)[];
  readonly marker: Cell | undefined;
}

async function readMarked(store: TwoLevelMapStore, logic: MirroredLogic, target: RecountTarget, keys: readonly Uint8Array[], withMarker = true): Promise<MarkedPage> {
  const m = logic.mirror;
  const flagKeys = keys.map((k) => m.flagKey(target, k));
  const [cells, read] = await Promise.all([
    keys.length === 0 ? [] : store.namespace(target.source.namespace).getKeys(target.source.id, keys),
    store.namespace(m.namespace).getKeys(target.result.id, withMarker ? [...flagKeys, m.markerKey(target)] : flagKeys),
  ]);
  return { keys, cells, flags: read.slice(0, flagKeys.length), marker: withMarker ? read[flagKeys.length] : undefined };
}

/** Copies the named source cells into their flags (`first` is the first page, already read); returns their buckets. */
async function mirrorKeys(store: TwoLevelMapStore, logic: MirroredLogic, target: RecountTarget, keys: readonly Uint8Array[], first: MarkedPage, pageSize: number): Promise<Map<string, Bucket>> {
  const m = logic.mirror;
  const id = target.result.id;
  const buckets = new Map<string, Bucket>();
  for (let at = 0; at < keys.length; at += pageSize) {
    const page = at === 0 ? first : await readMarked(store, logic, target, keys.slice(at, at + pageSize), false);
    const writes: Mutation[] = [];
    page.keys.forEach((key, i) => {
      addBucket(buckets, m.bucketOf(target, key));
      const cell = page.cells[i];
      const flag = page.flags[i];
      const flagKey = m.flagKey(target, key);
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
