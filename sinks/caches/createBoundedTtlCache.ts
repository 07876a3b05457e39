import { LRUCache } from 'lru-cache';
import type { CacheStats } from './CacheStats.ts';

export interface BoundedTtlCacheOptions {
  /** Most entries; the least recently used goes first. 0 turns the cache off. */
  readonly maxEntries: number;
  /** How long an entry may be served; 0 turns the cache off. */
  readonly ttlMs: number;
  /** ms since the epoch. */
  readonly nowMs: () => number;
}

/** A hit: `value` may itself be undefined (a cached "absent"). */
export interface CacheHit<V> {
  readonly value: V;
}

export interface BoundedTtlCache<V> {
  /** The fresh entry, or undefined on a miss (never set, expired or evicted). */
  get(key: string): CacheHit<V> | undefined;
  set(key: string, value: V): void;
  delete(key: string): void;
  keys(): IterableIterator<string>;
  /** Lookups by `get` and how many were fresh hits. */
  stats(): CacheStats;
}

/**
 * The bounded, expiring map under the read-aside caches (the node-tombstone
 * cache of the write path, the property cache of the reader): lru-cache bounds
 * the size by recency; expiry is checked here against the injected clock
 * (lru-cache 10 has no clock injection), so tests drive time by hand.
 */
export function createBoundedTtlCache<V>(opts: BoundedTtlCacheOptions): BoundedTtlCache<V> {
  let lookups = 0;
  let hits = 0;
  if (opts.maxEntries <= 0 || opts.ttlMs <= 0) {
    return { get: () => void lookups++, set: () => undefined, delete: () => undefined, keys: () => [].values(), stats: () => ({ lookups, hits, entries: 0 }) };
  }
  const entries = new LRUCache<string, { readonly value: V; readonly expiresAt: number }>({ max: opts.maxEntries });
  return {
    get(key) {
      lookups++;
      const hit = entries.get(key);
      if (hit === undefined) return undefined;
      if (hit.expiresAt > opts.nowMs()) {
        hits++;
        return hit;
      }
      entries.delete(key);
      return undefined;
    },
    set: (key, value) => void entries.set(key, { value, expiresAt: opts.nowMs() + opts.ttlMs }),
    delete: (key) => void entries.delete(key),
    keys: () => entries.keys(),
    stats: () => ({ lookups, hits, entries: entries.size }),
  };
}
