import type { SplitTarget } from '../sinks/namespaces/index.ts';
import { compareBytes, type KeyValue, type ReplicaGroup } from '../sinks/store/index.ts';

/**
 * The read port of the reader API: point reads and ascending pages of one
 * logical partition. The reader never asks where a partition lives: the plain
 * implementation reads the namespace directly, the split-aware one
 * (reads/split) routes a split partition to its buckets and falls back to the
 * original on any doubt. Cursors above this port are keys, never backend page
 * states, so a cursor stays valid when a partition becomes split mid-scan.
 */
export interface PartitionReader {
  /** The live cell under (namespace, id, key), or undefined. */
  get(namespace: string, id: string, key: Uint8Array): Promise<KeyValue | undefined>;
  /**
   * `get` of each of `keys` in one logical partition, in the order of `keys`,
   * in one request per physical partition (the plain reader: one `getKeys`;
   * a split one: one per bucket the keys fall in).
   */
  getKeys(namespace: string, id: string, keys: readonly Uint8Array[]): Promise<(KeyValue | undefined)[]>;
  /**
   * Up to `limit` live cells with `after` < key < `before` (either bound may
   * be absent), ascending in unsigned byte order. `exhausted` is true when no
   * cell after the last one returned (and below `before`) existed at read time.
   */
  page(namespace: string, id: string, query: PartitionPageQuery): Promise<PartitionPage>;
  /**
   * Every live cell of the partition once, in no promised order, a page at a
   * time (`from`: the previous page's `next`, absent after the last page), for
   * readers that need the set and not the order (a traversal). A hash-split
   * partition is read one bucket after another instead of merging every
   * bucket into each page, so a capped read touches only the buckets it needs;
   * anything else is read in key order, as by `page`.
   */
  scan(namespace: string, id: string, query: PartitionScanQuery): Promise<PartitionScanPage>;
  /**
   * The first `scan` page of each of `ids` (`scan(namespace, id, { limit })`),
   * in the order of `ids`, in as few requests as the reader can: the plain
   * reader reads them all with one `sliceMany` (one request per
   * `readIdsPerRequest` ids on Cassandra), the split-aware one scans the ids
   * its directory might hold on their own and batches the rest. A page's
   * `next` continues that partition with `scan`.
   */
  scanMany(namespace: string, ids: readonly string[], query: { readonly limit: number }): Promise<PartitionScanPage[]>;
  /**
   * Logical partition ids grouped by the replica set of their original
   * partition (the store's token map, no I/O), so a reader of many partitions
   * can bound its reads in flight per group. A split partition's buckets may
   * live elsewhere; it is grouped by its original id all the same.
   */
  replicaGroups(ids: readonly string[]): ReplicaGroup[];
}

export interface PartitionPageQuery {
  /** Exclusive lower bound: the last key of the previous page. */
  readonly after?: Uint8Array;
  /** Exclusive upper bound (a time range of a `*_recent` index). */
  readonly before?: Uint8Array;
  /** Most cells, an integer in [1, MAX_SLICE_LIMIT]. */
  readonly limit: number;
}

/** The part of an ascending page below `before`: a cell at or past it ends the range, so the page is then exhausted. */
export function pageBelow(page: PartitionPage, before: Uint8Array | undefined): PartitionPage {
  if (before === undefined) return page;
  const inside = page.cells.findIndex((c) => compareBytes(c.key, before) >= 0);
  return inside === -1 ? page : { cells: page.cells.slice(0, inside), exhausted: true };
}

export interface PartitionScanQuery {
  readonly from?: ScanPosition;
  /** Most cells, an integer in [1, MAX_SLICE_LIMIT]. */
  readonly limit: number;
}

export interface PartitionScanPage {
  readonly cells: readonly KeyValue[];
  /** Where the next page starts; absent when the scan is complete. */
  readonly next?: ScanPosition;
}

/**
 * Where a scan stands, only meaningful to the reader that returned it (kept
 * in memory, never serialized). A scan that began on a hash split stays on
 * that split's buckets; one that began in key order stays in key order.
 */
export interface ScanPosition {
  /** The hash split being scanned bucket by bucket, absent for a key-order scan. */
  readonly split?: SplitTarget;
  readonly bucket: number;
  /** The last key read in `bucket` (or in key order). */
  readonly after?: Uint8Array;
}

/** A key-order scan page made from an ascending page. */
export function keyOrderScanPage(page: PartitionPage): PartitionScanPage {
  const last = page.cells.at(-1);
  return page.exhausted || last === undefined ? { cells: page.cells } : { cells: page.cells, next: { bucket: 0, after: last.key } };
}

export interface PartitionPage {
  readonly cells: readonly KeyValue[];
  readonly exhausted: boolean;
}
