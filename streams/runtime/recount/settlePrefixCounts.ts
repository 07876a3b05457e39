import { compareBytes, prefixEnd, type Cell, type TwoLevelMapStore } from '../../../sinks/store/index.ts';
import { mapBoundedOrThrow } from '../../../sinks/store/mapBounded.ts';
import { countWriteTime, holdsCount, SETTLE_ATTEMPTS, unsettled } from './settleCount.ts';

/** Many counts of one partition, each the fold of the cells under one key prefix of another (or the same) partition. */
export interface PrefixCounts {
  readonly source: { readonly namespace: string; readonly id: string };
  readonly result: { readonly namespace: string; readonly id: string };
  /** Each count: the source prefix it folds and the result key it is stored under. Prefixes never overlap. */
  readonly counts: readonly { readonly prefix: Uint8Array; readonly key: Uint8Array }[];
  weigh(cell: Cell): bigint;
  encode(count: bigint): Uint8Array;
}

/** Up to this many prefixes are scanned one by one; more are read as a few key ranges that span them. */
const SCAN_EACH = 16;
/** Key ranges (each a run of neighbouring prefixes) read at once. */
const RANGES = 8;

/**
 * settleCount for many counts of one partition at once (the delta
 * recounter's bucket and group counts of one target): the count cells are
 * read with one getKeys beside the source, those that do not already hold
 * their fold written with one mutateMany (each
 * at max(t0, the write time of the cell it replaces + 1)), then read back
 * beside the source again and rewritten until each agrees, at most
 * SETTLE_ATTEMPTS times. Each count keeps settleCount's guarantee; only the
 * requests are shared: a target whose changes touch a thousand buckets costs
 * a handful of requests per level instead of five per bucket. Throws if any
 * count did not settle (its marks are kept).
 */
export async function settlePrefixCounts(store: TwoLevelMapStore, p: PrefixCounts, pageSize: number, t0: bigint): Promise<void> {
  const counts = [...p.counts].sort((a, b) => compareBytes(a.prefix, b.prefix));
  const results = store.namespace(p.result.namespace);
  const readAll = async (of: typeof counts) => {
    const [cells, tallies] = await Promise.all([results.getKeys(p.result.id, of.map((c) => c.key)), foldPrefixes(store, p, of.map((c) => c.prefix), pageSize)]);
    return of.map((c, i) => ({ ...c, previous: cells[i], count: tallies[i] as bigint }));
  };
  // A count already holding its prefix's fold (both read after the marks) is settled: neither written nor checked.
  let pending = (await readAll(counts)).filter((c) => !holdsCount(c.previous, p.encode(c.count)));
  for (let attempt = 1; attempt <= SETTLE_ATTEMPTS && pending.length > 0; attempt++) {
    await store.mutateMany(pending.map((c) => ({ namespace: p.result.namespace, id: p.result.id, writeTime: countWriteTime(c.previous, t0), deletions: [], additions: [{ key: c.key, value: p.encode(c.count) }] })));
    pending = (await readAll(pending)).filter((c) => !holdsCount(c.previous, p.encode(c.count)));
  }
  if (pending.length > 0) throw unsettled({ ...p.result, key: (pending[0] as (typeof pending)[number]).key });
}

/** The fold of each prefix's cells (prefixes sorted, not overlapping). */
async function foldPrefixes(store: TwoLevelMapStore, p: PrefixCounts, prefixes: readonly Uint8Array[], pageSize: number): Promise<bigint[]> {
  const ns = store.namespace(p.source.namespace);
  const sums = prefixes.map(() => 0n);
  if (prefixes.length <= SCAN_EACH) {
    await Promise.all(prefixes.map(async (prefix, i) => {
      let pageState: string | undefined;
      do {
        const got = await ns.scanPrefix(p.source.id, prefix, { limit: pageSize, ...(pageState === undefined ? {} : { pageState }) });
        for (const cell of got.cells) sums[i] = (sums[i] as bigint) + p.weigh(cell);
        pageState = got.pageState;
      } while (pageState !== undefined);
    }));
    return sums;
  }
  // Runs of neighbouring prefixes, each read as one key range; cells between two prefixes of a run are skipped.
  const per = Math.ceil(prefixes.length / RANGES);
  const runs = Array.from({ length: Math.ceil(prefixes.length / per) }, (_, r) => ({ from: r * per, to: Math.min(prefixes.length, (r + 1) * per) }));
  await mapBoundedOrThrow(runs, RANGES, async ({ from, to }) => {
    const last = prefixes[to - 1] as Uint8Array;
    const end = prefixEnd(last);
    let at = from;
    let pageState: string | undefined;
    do {
      const got = await ns.slice(p.source.id, { start: prefixes[from] as Uint8Array, ...(end === undefined ? {} : { end }), limit: pageSize, ...(pageState === undefined ? {} : { pageState }) });
      for (const cell of got.cells) {
        while (at < to && !startsWith(cell.key, prefixes[at] as Uint8Array) && compareBytes(cell.key, prefixes[at] as Uint8Array) > 0) at++;
        if (at < to && startsWith(cell.key, prefixes[at] as Uint8Array)) sums[at] = (sums[at] as bigint) + p.weigh(cell);
      }
      pageState = got.pageState;
    } while (pageState !== undefined);
  });
  return sums;
}

function startsWith(key: Uint8Array, prefix: Uint8Array): boolean {
  if (key.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (key[i] !== prefix[i]) return false;
  return true;
}
