import { cellKey, compareBytes } from '../../sinks/store/index.ts';

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
  /** True when a put of (writeTime, value) is known to change nothing (and counts the lookup). */
  dominates(namespace: string, id: string, key: Uint8Array, writeTime: bigint, value: Uint8Array): boolean;
  /** Records a put the store acknowledged; keeps the greater of the cached and the new write. */
  record(namespace: string, id: string, key: Uint8Array, writeTime: bigint, value: Uint8Array): void;
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
  readonly value: Uint8Array;
}

export function createLinkCache({ entries: capacity }: { entries: number }): LinkCache {
  if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`link cache entries must be an integer >= 0, got ${capacity}`);
  const lru = new Map<string, Entry>();
  let lookups = 0;
  let suppressed = 0;

  return {
    dominates(namespace, id, key, writeTime, value) {
      lookups++;
      const cacheKey = cellKey(namespace, id, key);
      const entry = lru.get(cacheKey);
      if (entry === undefined) return false;
      lru.delete(cacheKey); // refresh recency
      lru.set(cacheKey, entry);
      const dominated = isAtLeast(entry, writeTime, value);
      if (dominated) suppressed++;
      return dominated;
    },
    record(namespace, id, key, writeTime, value) {
      if (capacity === 0) return;
      const cacheKey = cellKey(namespace, id, key);
      const entry = lru.get(cacheKey);
      lru.delete(cacheKey);
      lru.set(cacheKey, entry !== undefined && isAtLeast(entry, writeTime, value) ? entry : { writeTime, value: value.slice() });
      if (lru.size > capacity) lru.delete(lru.keys().next().value as string);
    },
    stats: () => ({ entries: lru.size, capacity, lookups, suppressed }),
  };
}

/** (entry.writeTime, entry.value) >= (writeTime, value) in last-write-wins order. */
function isAtLeast(entry: Entry, writeTime: bigint, value: Uint8Array): boolean {
  return entry.writeTime > writeTime || (entry.writeTime === writeTime && compareBytes(entry.value, value) >= 0);
}
