import type { Cell } from '../sinks/store/index.ts';

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
  get(namespace: string, id: string, key: Uint8Array): Promise<Cell | undefined>;
  /**
   * `get` of each of `keys` in one logical partition, in the order of `keys`,
   * in one request per physical partition (the plain reader: one `getKeys`;
   * a split one: one per bucket the keys fall in).
   */
  getKeys(namespace: string, id: string, keys: readonly Uint8Array[]): Promise<(Cell | undefined)[]>;
  /**
   * Up to `limit` live cells with key > `after` (or from the smallest key when
   * absent), ascending in unsigned byte order. `exhausted` is true when no
   * cell after the last one returned existed at read time.
   */
  page(namespace: string, id: string, query: PartitionPageQuery): Promise<PartitionPage>;
}

export interface PartitionPageQuery {
  /** Exclusive lower bound: the last key of the previous page. */
  readonly after?: Uint8Array;
  /** Most cells, an integer in [1, MAX_SLICE_LIMIT]. */
  readonly limit: number;
}

export interface PartitionPage {
  readonly cells: readonly Cell[];
  readonly exhausted: boolean;
}
