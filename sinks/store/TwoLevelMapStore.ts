/**
 * The storage port: a two-level map, namespace → partition id → sorted map of
 * key bytes → value bytes (JanusGraph's KeyColumnValueStore, Netflix KV's
 * namespaces). Everything above it (links, properties, wide-row metadata,
 * split tables) is a namespace with its own key/value codec.
 *
 * Rules shared by every method below:
 * - **Byte order.** Keys are ordered unsigned lexicographically: byte by byte
 *   as 0..255, a proper prefix before its extensions (0x7f < 0x80 < 0xff,
 *   0x01 < 0x0100). The empty key is the smallest key.
 * - **Write times.** Every write carries a caller-chosen `writeTime`
 *   (microseconds, a bigint in [0, 2^63 - 1]). State is last-write-wins on
 *   that clock, never on arrival order: a write never overwrites a newer one.
 *   At equal write times a deletion wins over a value (Cassandra's rule), and
 *   between two values the one with the greater bytes wins (compared
 *   unsigned) as long as both are at most `features.maxInlineValueBytes`;
 *   ties involving larger (chunked) values are settled by a backend-specific
 *   but arrival-order-independent rule. Writers that need a given winner use
 *   distinct write times.
 * - **Tombstones.** A deletion is itself a timestamped fact: `delete` at T
 *   hides every value written at <= T, including ones that arrive later.
 * - **Idempotency.** Repeating any write, in any order, with the same
 *   arguments leaves the same state, so the runtime may retry freely.
 * - **Throws.** Every failure is a `StoreError`. `retriable: true` means the
 *   same call may succeed later and is safe to repeat; `false` means it never
 *   will (the runtime dead-letters instead of retrying). Arguments are
 *   validated before anything is sent, so an `invalid_argument` or
 *   `too_large` throw wrote nothing. A failed write may have been partly
 *   applied; repeating it converges.
 * - **Buffers.** Implementations never keep or change the arrays they are
 *   given and always return arrays the caller owns.
 */

import type { ReplicaGroup } from './replicaGroups.ts';

/** One live cell of a partition. */
export interface Cell {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
  /** The write time of the put that produced this value (Cassandra `WRITETIME(value)`). */
  readonly writeTime: bigint;
}

/** Where a cell lives: its partition and its key. */
export interface CellAddress {
  readonly id: string;
  readonly key: Uint8Array;
}

export type SliceOrder = 'asc' | 'desc';

export interface SliceQuery {
  /** Inclusive lower bound; absent means from the smallest key. */
  readonly start?: Uint8Array;
  /** Exclusive upper bound; absent means to the end. `start >= end` is an empty range. */
  readonly end?: Uint8Array;
  /** Most cells to return in this page, an integer in [1, MAX_SLICE_LIMIT]. */
  readonly limit: number;
  /** `asc` (default) walks from `start` upwards, `desc` from `end` downwards. */
  readonly order?: SliceOrder;
  /** The `pageState` of the previous page of the same query (same id, bounds and order). */
  readonly pageState?: string;
}

export interface PrefixScanQuery {
  readonly limit: number;
  readonly order?: SliceOrder;
  readonly pageState?: string;
}

export interface SlicePage<C extends KeyValue = Cell> {
  /** Cells in the requested order, at most `limit` of them. */
  readonly cells: readonly C[];
  /**
   * Present exactly when more cells exist in the range after this page. It is
   * an opaque string that every backend encodes the same way, so a page state
   * stays valid across retries and backends.
   */
  readonly pageState?: string;
}

export interface KeyValue {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}

/**
 * A batch of writes to one partition at one write time (JanusGraph's
 * KCVMutation). **Deletions apply before additions**: a key both deleted and
 * added ends up holding the added value, even though a plain delete and put
 * at the same write time would leave it deleted (see `consolidateMutations`).
 * The order is: `clear`, then `deletions`, then `additions`.
 */
export interface Mutation {
  readonly namespace: string;
  readonly id: string;
  readonly writeTime: bigint;
  /**
   * Deletes the whole partition `id` before the deletions and additions: one
   * partition tombstone (Cassandra `DELETE FROM t USING TIMESTAMP ? WHERE
   * id = ?`) that hides every cell of the partition written at <= its time,
   * including cells that arrive later, while cells written later survive.
   * Idempotent, like every write.
   *
   * Its time is `writeTime`, except that **when this same mutation also adds
   * cells** it is `writeTime - 1`, so its own additions stay visible; a
   * tombstone at `writeTime` would win the tie and hide them. Additions of
   * other mutations are never protected, whether they come in the same
   * `mutateMany` call or not: mutations are independent facts.
   * Consequence of that rule: cells of *other* keys written at exactly
   * `writeTime` by other writes survive a clear that comes with additions
   * (a clear with no additions at `writeTime` hides them). Writers
   * that need them gone use distinct write times (clear at T, add at T+1),
   * as for every tie. At `writeTime = 0` with additions the clear has
   * nothing to hide and writes nothing. `deletions` keep `writeTime`.
   *
   * A clear alone is the same partition tombstone as
   * `NamespaceStore.keepNewest(id, 0, writeTime)`. In chunked namespaces the
   * chunks of the cleared large values are not enumerated (that would need a
   * scan of the partition): they become unreachable, since only a live row
   * leads to its chunks, and are collected by the next put or delete of their
   * key at a later write time, like the chunks of rows removed by `keepNewest`.
   */
  readonly clear?: boolean;
  /**
   * With `clear`, narrows it to the keys that start with `clearPrefix`: one
   * range tombstone over `[clearPrefix, prefixEnd(clearPrefix))` (Cassandra
   * `DELETE ... WHERE id = ? AND key >= ? AND key < ?`) with the same time
   * rules as a whole-partition clear; keys outside the prefix are untouched.
   * Empty or absent: the whole partition. Invalid without `clear: true`.
   * (Property bags: one partition per vertex pair, one prefix per direction.)
   */
  readonly clearPrefix?: Uint8Array;
  readonly deletions: readonly Uint8Array[];
  readonly additions: readonly KeyValue[];
}

/** Per-call limits of `mutateMany`. */
export interface WriteOptions {
  /**
   * Give up after this many ms: a request not answered (or not yet sent) by
   * then fails with a retriable `timeout`, and the backend does not retry it
   * elsewhere. A write that timed out may still be applied by the server
   * afterwards (Cassandra: up to its write_request_timeout after it arrived).
   */
  readonly timeoutMs?: number;
}

/** What a backend (or one namespace of it) can do; callers branch on this, never on classes. */
export interface StoreFeatures {
  /** Slices return keys in unsigned lexicographic order. */
  readonly orderedKeys: boolean;
  /** Caller write times decide last-write-wins and are reported back on reads. */
  readonly writeTimestamps: boolean;
  /** `mutateMany` groups writes per partition into one round trip. */
  readonly batchMutation: boolean;
  /**
   * `deleteNewest`/`keepNewest` write one range tombstone, so an older put
   * into the deleted range that arrives later stays hidden.
   */
  readonly rangeDeletes: boolean;
  /** Values above `maxInlineValueBytes` are split into chunks transparently. */
  readonly chunking: boolean;
  /** Values up to this size are stored as one cell (and obey the equal-write-time tie rule). */
  readonly maxInlineValueBytes: number;
  /** The largest value a put accepts; larger values throw `too_large`. */
  readonly maxValueBytes: number;
  /** State survives a process restart. */
  readonly persistent: boolean;
}

/** The two-level map bound to one namespace. */
export interface NamespaceStore {
  readonly namespace: string;
  /** The effective features of this namespace (chunking is configured per namespace). */
  readonly features: StoreFeatures;

  /**
   * Writes `value` under (id, key) at `writeTime`. It becomes visible only if
   * no write at a later time (or a deletion at the same time) exists for that
   * key, whichever arrives first. Idempotent.
   */
  put(id: string, key: Uint8Array, value: Uint8Array, writeTime: bigint): Promise<void>;

  /**
   * Deletes (id, key) at `writeTime`: hides every value written at <= that
   * time, including ones that arrive later; a value written later survives.
   * Deleting a missing key still records the tombstone. Idempotent.
   */
  delete(id: string, key: Uint8Array, writeTime: bigint): Promise<void>;

  /** The live cell under (id, key), or undefined if there is none. */
  get(id: string, key: Uint8Array): Promise<Cell | undefined>;

  /**
   * `get(id, key)` for each of `cells` (any partitions, any keys), in order;
   * a repeated cell gets the same answer. Backends read many cells per
   * request (Cassandra: `id IN ? AND key IN ?` over a few partitions at a
   * time, dropping rows of pairs nobody asked for), so a chunk's scattered
   * point reads (node tombstones, current links) cost a few round trips
   * instead of one per cell. Fails as a whole.
   */
  getCells(cells: readonly CellAddress[]): Promise<(Cell | undefined)[]>;

  /**
   * `get(id, key)` for each of `keys` (many keys, one partition), in the
   * order of `keys`; a repeated key gets the same answer. Backends read them
   * in as few requests as they can (Cassandra: `id = ? AND key IN ?`, at most
   * `readKeysPerRequest` keys per request), so checking a page of index
   * entries against their link partition is one round trip. Fails as a whole.
   */
  getKeys(id: string, keys: readonly Uint8Array[]): Promise<(Cell | undefined)[]>;

  /**
   * The first page of `slice(id, { limit })` for each of `ids` (many
   * partitions, each from its smallest key), in the order of `ids`; a
   * repeated id gets the same answer. A page's `pageState` is present exactly
   * when its partition holds more cells, and continues it with `slice(id,
   * { limit, pageState })`. Backends read many partitions per request
   * (Cassandra: `id IN ? PER PARTITION LIMIT ?`, at most `readIdsPerRequest`
   * ids and about 10 000 rows per request), so expanding a frontier of small
   * partitions costs a few round trips instead of one per partition. Fails
   * as a whole.
   */
  sliceMany(ids: readonly string[], query: { readonly limit: number }): Promise<SlicePage[]>;

  /**
   * One page of the live cells of partition `id` with `start <= key < end`,
   * in `order`. Paging with `pageState` returns every cell of the range
   * exactly once, in order, if the range is not written meanwhile; cells
   * written between pages show up iff they sort after the last key returned.
   */
  slice(id: string, query: SliceQuery): Promise<SlicePage>;

  /**
   * `slice` over the keys that start with `prefix`: from `prefix` (inclusive)
   * to the smallest key greater than every key with that prefix (exclusive),
   * or to the end when the prefix is empty or all 0xff.
   */
  scanPrefix(id: string, prefix: Uint8Array, query: PrefixScanQuery): Promise<SlicePage>;

  /**
   * Deletes the `n` greatest ("newest") keys of the partition at `writeTime`:
   * reads them, then deletes every key >= the smallest of them. Keys in that
   * range that were written at <= `writeTime` but not seen by the read are
   * deleted too. Returns the number of live cells the read saw (<= n).
   * Repeating the call deletes the next `n` keys: it is not idempotent in
   * effect, only safe (no partial state beyond what a crash between the two
   * steps leaves).
   */
  deleteNewest(id: string, n: number, writeTime: bigint): Promise<number>;

  /**
   * Keeps only the `n` greatest keys: reads them, then deletes every key
   * smaller than the smallest of them at `writeTime` (`n = 0` deletes the
   * whole partition at `writeTime`). Nothing is deleted when the partition
   * holds fewer than `n` live cells. Returns the number of cells kept.
   * Idempotent once the partition is quiet. `keepNewest(id, 0, t)` reads
   * nothing and writes the same partition tombstone as a `mutateMany`
   * mutation `{ clear: true }` at `t` with no additions.
   */
  keepNewest(id: string, n: number, writeTime: bigint): Promise<number>;
}

/** The store: one backend, many namespaces declared up front in its config. */
/** `NamespaceStore`'s reads, answered without write times (`TwoLevelMapStore.values`). */
export interface NamespaceValues {
  readonly namespace: string;
  get(id: string, key: Uint8Array): Promise<KeyValue | undefined>;
  getKeys(id: string, keys: readonly Uint8Array[]): Promise<(KeyValue | undefined)[]>;
  slice(id: string, query: SliceQuery): Promise<SlicePage<KeyValue>>;
  sliceMany(ids: readonly string[], query: { readonly limit: number }): Promise<SlicePage<KeyValue>[]>;
}

export interface TwoLevelMapStore {
  /** What this backend can do at best; a namespace's own `features` may say less. */
  readonly features: StoreFeatures;
  /** The configured namespace names, in config order. */
  readonly namespaces: readonly string[];

  /**
   * Creates whatever the configured namespaces need (Cassandra: keyspace and
   * tables). Idempotent; never alters or drops existing tables.
   */
  init(): Promise<void>;

  /**
   * The store bound to one namespace; throws `unknown_namespace` if it is not
   * configured. On a closed store it still returns it, and each of its calls
   * rejects with `closed`: a synchronous throw from `namespace()` inside
   * `Promise.all([a(), store.namespace(n).get(…)])` would leave `a()` unawaited,
   * and its rejection unhandled (a process exit under Node's default).
   */
  namespace(name: string): NamespaceStore;

  /**
   * The reads of `namespace(name)` without write times, for readers that never
   * use them (the read side): the same cells, minus `writeTime`, from queries
   * that leave it out. A backend without a cheaper query returns `namespace(name)`.
   */
  values(name: string): NamespaceValues;

  /**
   * Partition ids grouped by the replica set holding them (every namespace
   * shares the partition key, so an id has one token), from metadata in
   * memory: no I/O. Readers bound their in-flight reads per group. A backend
   * without a token map returns one group (`oneReplicaGroup`).
   */
  replicaGroups(ids: readonly string[]): ReplicaGroup[];

  /**
   * Applies many mutations. They are consolidated per (namespace, id) with
   * `consolidateMutations` (clear, then deletions, then additions within
   * each mutation; across mutations plain last-write-wins, so the result
   * equals sending each mutation on its own in any order),
   * then run concurrently with bounded concurrency. All arguments are
   * validated first, so an invalid mutation writes nothing. If some groups
   * fail, the others are still applied and the call rejects with a
   * `partial_failure` whose `failures` name the input indexes of the failed
   * mutations; re-sending those (or all) converges.
   */
  mutateMany(mutations: readonly Mutation[], options?: WriteOptions): Promise<void>;

  /** Releases connections. Every later call throws `closed`. Idempotent. */
  close(): Promise<void>;
}
