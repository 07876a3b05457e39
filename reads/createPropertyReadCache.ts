import { LRUCache } from 'lru-cache';

export interface PropertyReadCacheOptions {
  /** Most cached (bag, name) results; 0 turns the cache off. */
  readonly maxEntries: number;
  /** How long a result (present or absent) may be served without reading; 0 turns the cache off. */
  readonly ttlMs: number;
  /** ms since the epoch. */
  readonly clock: () => number;
}

/** A cached point-read result: the stored value bytes, or undefined for "no such property". */
export interface CachedProperty {
  readonly value: Uint8Array | undefined;
}

export interface PropertyReadCache {
  /** The cached result, or undefined on a miss (absent, expired or evicted). */
  get(key: string): CachedProperty | undefined;
  set(key: string, value: Uint8Array | undefined): void;
}

interface Entry extends CachedProperty {
  readonly expiresAt: number;
}

/**
 * A bounded read-aside cache of property point reads (shared/DESIGN.md §5,
 * "read-aside property cache"), absent results included, so a hot edge's
 * properties cost one read per `ttlMs`. A property written meanwhile is seen
 * at most `ttlMs` late. Bytes are cached, not decoded values, so every hit
 * decodes fresh objects the caller may keep or change. Expiry is checked here
 * against the injected clock (lru-cache 10 has no clock injection); lru-cache
 * bounds the size by recency.
 */
export function createPropertyReadCache(opts: PropertyReadCacheOptions): PropertyReadCache {
  if (opts.maxEntries <= 0 || opts.ttlMs <= 0) return { get: () => undefined, set: () => undefined };
  const entries = new LRUCache<string, Entry>({ max: opts.maxEntries });
  return {
    get(key) {
      const hit = entries.get(key);
      if (hit === undefined) return undefined;
      if (hit.expiresAt > opts.clock()) return hit;
      entries.delete(key);
      return undefined;
    },
    set(key, value) {
      entries.set(key, { value: value === undefined ? undefined : Uint8Array.from(value), expiresAt: opts.clock() + opts.ttlMs });
    },
  };
}
