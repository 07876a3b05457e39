import { LRUCache } from 'lru-cache';
import { bytesKey } from '../../../sinks/store/index.ts';

/**
 * The write-aside link cache: a bounded LRU of (namespace, id, key) → the
 * greatest (write time, value bytes) this process has seen *acknowledged* by
 * the store. A new addition that this entry dominates cannot change state
 * under the store's last-write-wins rule (a newer write time wins; at equal
 * write times the greater value bytes win, and a tombstone beats both), so
 * dropping it is exact, not an approximation.
 *
 * The cache only ever holds facts about writes that landed, so it may be
 * empty, partial or evicted at any moment without affecting correctness; it
 * starts empty, which is why a restart can never make state wrong.
 */
export interface LinkCache {
  /**
   * True when a put of (writeTime, value) to `cell` is known to change nothing (and counts the lookup).
   * `cell` identifies (namespace, id, key): `cellKey` of sinks/store, built once per addition by the caller.
   */
  dominates(cell: string, writeTime: bigint, value: Uint8Array): boolean;
  /** Records a put to `cell` the store acknowledged; keeps the greater of the cached and the new write. */
  record(cell: string, writeTime: bigint, value: Uint8Array): void;
  stats(): LinkCacheStats;
}

export interface LinkCacheStats {
  readonly entries: number;
  readonly capacity: number;
  /** Additions checked against the cache. */
  readonly lookups: number;
  /** Additions dropped because a cached write dominates them. */
  readonly suppressed: number;
}

interface Entry {
  readonly writeTime: bigint;
  /**
   * The value bytes as a Latin-1 string (`bytesKey`): a copy on the JS heap
   * (not a new ArrayBuffer per entry), and string order is byte order, which
   * is the LWW tie rule's order.
   */
  readonly value: string;
}

export function createLinkCache({ entries: capacity }: { entries: number }): LinkCache {
  if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`link cache entries must be an integer >= 0, got ${capacity}`);
  // lru-cache keeps recency in typed-array lists: a hit or an update moves no Map entry.
  const lru = capacity === 0 ? undefined : new LRUCache<string, Entry>({ max: capacity });
  let lookups = 0;
  let suppressed = 0;

  return {
    dominates(cacheKey, writeTime, value) {
      lookups++;
      const entry = lru?.get(cacheKey); // refreshes recency
      if (entry === undefined) return false;
      const dominated = isAtLeast(entry, writeTime, value);
      if (dominated) suppressed++;
      return dominated;
    },
    record(cacheKey, writeTime, value) {
      if (lru === undefined) return;
      const entry = lru.peek(cacheKey); // set() below refreshes recency when it writes
      if (entry === undefined || !isAtLeast(entry, writeTime, value)) lru.set(cacheKey, { writeTime, value: bytesKey(value) });
    },
    stats: () => ({ entries: lru?.size ?? 0, capacity, lookups, suppressed }),
  };
}

/** (entry.writeTime, entry.value) >= (writeTime, value) in last-write-wins order. */
function isAtLeast(entry: Entry, writeTime: bigint, value: Uint8Array): boolean {
  return entry.writeTime > writeTime || (entry.writeTime === writeTime && entry.value >= bytesKey(value));
}
