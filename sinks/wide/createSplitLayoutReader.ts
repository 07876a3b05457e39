import { bucketCount, bucketOfKey, splitBucketId, type SplitTarget } from '../namespaces/index.ts';
import { compareBytes, keySuccessor, type Cell, type KeyValue, type SlicePage, type SliceQuery, type TwoLevelMapStore } from '../store/index.ts';

export interface LayoutPageQuery {
  /** Exclusive lower bound (the last key of the previous page). */
  readonly after?: Uint8Array;
  readonly limit: number;
}

export interface LayoutPage<C extends KeyValue = Cell> {
  readonly cells: readonly C[];
  readonly exhausted: boolean;
}

/**
 * Reads one split partition through its buckets as if it were the original:
 * a point read goes to the key's single bucket; an ascending page
 * - hash layout: reads about 1.5 × limit / n cells after `after` from every
 *   bucket at once and merges them, up to the smallest last key of a bucket
 *   that has more (past it that bucket's next keys are unknown), so a page
 *   reads ~1.5 × limit cells instead of n × limit and may come back short
 *   (not exhausted) when the keys are unevenly spread;
 * - range layout: reads the bucket holding the first key after `after`, and the
 *   next ones only while the page is not full (the newest page of a
 *   time-ordered namespace reads bucket 0 alone).
 */
export interface SplitLayoutReader<C extends KeyValue = Cell> {
  get(target: SplitTarget, key: Uint8Array): Promise<C | undefined>;
  /** `get` of many keys, in their order: one `getKeys` per bucket the keys fall in, all at once (≤ maxBuckets). */
  getKeys(target: SplitTarget, keys: readonly Uint8Array[]): Promise<(C | undefined)[]>;
  page(target: SplitTarget, query: LayoutPageQuery): Promise<LayoutPage<C>>;
  /** An ascending page of one bucket alone (an order-free scan reads the buckets one by one). */
  pageBucket(target: SplitTarget, bucket: number, query: LayoutPageQuery): Promise<LayoutPage<C>>;
}

/** The reads a layout reader makes of one split namespace, in one cell shape. */
interface BucketReads<C extends KeyValue> {
  get(id: string, key: Uint8Array): Promise<C | undefined>;
  getKeys(id: string, keys: readonly Uint8Array[]): Promise<(C | undefined)[]>;
  slice(id: string, query: SliceQuery): Promise<SlicePage<C>>;
}

/** The split chain's reader: cells with their write times (verification compares them). */
export function createSplitLayoutReader(store: TwoLevelMapStore): SplitLayoutReader {
  return layoutReaderOf((name) => store.namespace(name));
}

/** The read side's reader: key and value only (`TwoLevelMapStore.values`). */
export function createSplitLayoutValueReader(store: TwoLevelMapStore): SplitLayoutReader<KeyValue> {
  return layoutReaderOf((name) => store.values(name));
}

function layoutReaderOf<C extends KeyValue>(reads: (namespace: string) => BucketReads<C>): SplitLayoutReader<C> {
  const sliceBucket = async (t: SplitTarget, bucket: number, after: Uint8Array | undefined, limit: number) => {
    const page = await reads(t.splitNamespace).slice(splitBucketId(t.partitionId, t.generation, bucket), { limit, ...(after === undefined ? {} : { start: keySuccessor(after) }) });
    return { cells: page.cells, exhausted: page.pageState === undefined };
  };
  return {
    pageBucket: (t, bucket, { after, limit }) => sliceBucket(t, bucket, after, limit),
    get: (t, key) => reads(t.splitNamespace).get(splitBucketId(t.partitionId, t.generation, bucketOfKey(t.layout, key)), key),
    async getKeys(t, keys) {
      const byBucket = new Map<number, number[]>();
      keys.forEach((key, i) => {
        const bucket = bucketOfKey(t.layout, key);
        const at = byBucket.get(bucket);
        if (at === undefined) byBucket.set(bucket, [i]);
        else at.push(i);
      });
      const out: (C | undefined)[] = new Array(keys.length).fill(undefined);
      await Promise.all(
        [...byBucket].map(async ([bucket, indexes]) => {
          const cells = await reads(t.splitNamespace).getKeys(splitBucketId(t.partitionId, t.generation, bucket), indexes.map((i) => keys[i] as Uint8Array));
          indexes.forEach((i, j) => (out[i] = cells[j]));
        }),
      );
      return out;
    },
    async page(t, { after, limit }) {
      const n = bucketCount(t.layout);
      if (t.layout.strategy === 'hash') {
        const perBucket = Math.min(limit, Math.ceil((1.5 * limit) / n) + 8);
        const pages = await Promise.all(Array.from({ length: n }, (_, b) => sliceBucket(t, b, after, perBucket)));
        let bound: Uint8Array | undefined;
        for (const p of pages) {
          const last = p.cells.at(-1)?.key;
          if (!p.exhausted && last !== undefined && (bound === undefined || compareBytes(last, bound) < 0)) bound = last;
        }
        const merged = pages
          .flatMap((p) => p.cells)
          .filter((c) => bound === undefined || compareBytes(c.key, bound) <= 0)
          .sort((a, b) => compareBytes(a.key, b.key));
        return { cells: merged.slice(0, limit), exhausted: bound === undefined && merged.length <= limit };
      }
      const cells: C[] = [];
      let bucket = after === undefined ? 0 : bucketOfKey(t.layout, keySuccessor(after));
      let from = after;
      for (; bucket < n; bucket++) {
        const page = await sliceBucket(t, bucket, from, limit - cells.length);
        cells.push(...page.cells);
        if (cells.length >= limit) return { cells, exhausted: page.exhausted && bucket === n - 1 };
        from = undefined; // later buckets start at their smallest key
      }
      return { cells, exhausted: true };
    },
  };
}
