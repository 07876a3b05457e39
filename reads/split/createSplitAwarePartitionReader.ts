import { bucketOfKey, splitTargetOf, type SplitTarget } from '../../sinks/namespaces/index.ts';
import type { KeyValue } from '../../sinks/store/index.ts';
import type { SplitDirectory, SplitLayoutReader } from '../../sinks/wide/index.ts';
import { keyOrderScanPage, pageBelow, type PartitionReader, type PartitionScanPage } from '../PartitionReader.ts';
import { scanHashBuckets } from './scanHashBuckets.ts';

export interface SplitAwareReaderOptions {
  /** Reads partitions where the write path put them. */
  readonly original: PartitionReader;
  readonly directory: SplitDirectory;
  readonly layoutReader: SplitLayoutReader<KeyValue>;
  /** Namespaces that may be split; others never consult the directory. */
  readonly namespaces: ReadonlySet<string>;
  /**
   * Most buckets of a hash split a multi-key read goes to; keys in more buckets are read from the
   * original in one request (config `wide.multiKeyReadMaxBuckets`).
   */
  readonly multiKeyReadMaxBuckets: number;
  /** Told when a split read failed and the original answered instead. */
  readonly onFallback?: (info: { namespace: string; partitionId: string; error: unknown }) => void;
}

/**
 * Serving (docs/architecture.md §6): a read of a splittable namespace asks
 * the directory's Bloom filter first (in memory; almost always "no"); on a
 * hit, the (cached) wide_rows record decides: COMPLETED routes the read to
 * the split layout (a point read to its one bucket, a page through the
 * buckets; a multi-key read whose keys fall in more than
 * `multiKeyReadMaxBuckets` buckets reads the original in one
 * request), anything else reads the original. Any error on the split path,
 * or a stale directory (its reloads keep failing), falls back to the
 * original, which is never deleted and gets every write.
 */
export function createSplitAwarePartitionReader(opts: SplitAwareReaderOptions): PartitionReader {
  const { original, directory, layoutReader } = opts;
  /** False for nearly every partition: no split, or a stale directory (reads go to the original). */
  const mightBeSplit = (namespace: string, partitionId: string) => opts.namespaces.has(namespace) && directory.isFresh() && directory.mightHaveRecord(namespace, partitionId);
  /** The COMPLETED split of a partition the filter may hold (callers ask `mightBeSplit` first). */
  const completedSplit = async (namespace: string, partitionId: string) => {
    const record = await directory.record(namespace, partitionId);
    return record?.status === 'COMPLETED' ? splitTargetOf(record) : undefined;
  };
  const viaSplit = <T>(namespace: string, partitionId: string, split: (t: SplitTarget) => Promise<T>, plain: () => Promise<T>): Promise<T> =>
    // The usual answer, "not split", goes straight to the original without another promise.
    mightBeSplit(namespace, partitionId) ? viaSplitIfCompleted(namespace, partitionId, split, plain) : plain();
  const viaSplitIfCompleted = async <T>(namespace: string, partitionId: string, split: (t: SplitTarget) => Promise<T>, plain: () => Promise<T>): Promise<T> => {
    let target;
    try {
      target = await completedSplit(namespace, partitionId);
      if (target !== undefined) return await split(target);
    } catch (error) {
      opts.onFallback?.({ namespace, partitionId, error });
    }
    return plain();
  };
  const reader: PartitionReader = {
    get: (namespace, id, key) => viaSplit(namespace, id, (t) => layoutReader.get(t, key), () => original.get(namespace, id, key)),
    getKeys: (namespace, id, keys) => {
      const plain = () => original.getKeys(namespace, id, keys);
      // One request to the original beats one per bucket when a page's peers spread over many (a newest page's 50 over 16).
      return viaSplit(namespace, id, (t) => (bucketsOf(t, keys) > opts.multiKeyReadMaxBuckets ? plain() : layoutReader.getKeys(t, keys)), plain);
    },
    // The split layout pages without an upper bound: cells past `before` are dropped here.
    page: (namespace, id, query) => viaSplit(namespace, id, async (t) => pageBelow(await layoutReader.page(t, query), query.before), () => original.page(namespace, id, query)),
    scan: async (namespace, id, { from, limit }) => {
      if (from?.split !== undefined) return scanHashBuckets(layoutReader, from.split, from, limit);
      const keyOrder = async () => keyOrderScanPage(await reader.page(namespace, id, { limit, ...(from?.after === undefined ? {} : { after: from.after }) }));
      if (from !== undefined) return keyOrder();
      // A fresh scan: a COMPLETED hash split is read bucket by bucket; anything else in key order.
      return viaSplit(namespace, id, (t) => (t.layout.strategy === 'hash' ? scanHashBuckets(layoutReader, t, { bucket: 0 }, limit) : keyOrder()), keyOrder);
    },
    // Ids the directory might hold are scanned on their own (through their split, if COMPLETED); the rest in one batch from the original.
    scanMany: async (namespace, ids, query) => {
      const alone = new Set(ids.filter((id) => mightBeSplit(namespace, id)));
      if (alone.size === 0) return original.scanMany(namespace, ids, query);
      const batched = ids.filter((id) => !alone.has(id));
      const [pages, scanned] = await Promise.all([
        batched.length === 0 ? [] : original.scanMany(namespace, batched, query),
        Promise.all([...alone].map(async (id) => [id, await reader.scan(namespace, id, query)] as const)),
      ]);
      const byId = new Map([...batched.map((id, i) => [id, pages[i] as PartitionScanPage] as const), ...scanned]);
      return ids.map((id) => byId.get(id) as PartitionScanPage);
    },
    replicaGroups: (ids) => original.replicaGroups(ids),
  };
  return reader;
}

/** How many buckets of `t` the keys fall in. */
function bucketsOf(t: SplitTarget, keys: readonly Uint8Array[]): number {
  const buckets = new Set<number>();
  for (const key of keys) buckets.add(bucketOfKey(t.layout, key));
  return buckets.size;
}
