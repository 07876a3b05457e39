import { cellKey } from '../store/cellKey.ts';
import { decorateStore } from '../store/decorateStore.ts';
import type { CacheStats } from './CacheStats.ts';
import { createBoundedTtlCache } from './createBoundedTtlCache.ts';
import type { Cell, CellAddress, Mutation, NamespaceStore, TwoLevelMapStore } from '../store/TwoLevelMapStore.ts';

export interface ExpiringReadCacheOptions {
  /** Namespaces whose point reads are cached; every other call passes straight through. */
  readonly namespaces: readonly string[];
  /** How long a read result (present or absent) may be served without asking the store. */
  readonly ttlMs: number;
  /** Most cached cells; the least recently used is evicted first. */
  readonly maxEntries: number;
  readonly nowMs?: () => number;
}

/**
 * A read-aside cache of `get` results (present or absent) for a few namespaces, each
 * result served for at most `ttlMs`. Writes that go through this store's `mutateMany`
 * drop the entries of the partitions they touch, so this process never serves a value
 * older than its own last write; writes by other processes are seen within `ttlMs`.
 *
 * Only for reads whose consumer tolerates that staleness by design: the fan-out's
 * node-tombstone reads do, because the REMOVE_NODE cascade pages a node's links only
 * `cascadeSettleMs` after its tombstone was written, and the config requires
 * `2 × (writeRetryBudgetMs + writeLandingMarginMs) + ttlMs < cascadeSettleMs`, so any link an ADD wrote after
 * reading a stale "no tombstone" has landed before the cascade looks.
 */
/** The caching store, and its lookups and hits (one per cell asked of a cached namespace). */
export interface ExpiringReadCache extends TwoLevelMapStore {
  cacheStats(): CacheStats;
}

export function createExpiringReadCache(inner: TwoLevelMapStore, opts: ExpiringReadCacheOptions): ExpiringReadCache {
  const cached = new Set(opts.namespaces);
  const entries = createBoundedTtlCache<Cell | undefined>({ maxEntries: opts.maxEntries, ttlMs: opts.ttlMs, nowMs: opts.nowMs ?? Date.now });
  const partitionPrefix = (ns: string, id: string) => `${ns}\u0000${id}\u0000`;

  const wrap = (ns: NamespaceStore): NamespaceStore =>
    Object.freeze({
      namespace: ns.namespace,
      features: ns.features,
      put: ns.put.bind(ns),
      delete: ns.delete.bind(ns),
      slice: ns.slice.bind(ns),
      sliceMany: ns.sliceMany.bind(ns),
      getKeys: ns.getKeys.bind(ns),
      scanPrefix: ns.scanPrefix.bind(ns),
      deleteNewest: ns.deleteNewest.bind(ns),
      keepNewest: ns.keepNewest.bind(ns),
      async get(id: string, key: Uint8Array) {
        const k = cellKey(ns.namespace, id, key);
        const hit = entries.get(k);
        if (hit) return hit.value;
        const cell = await ns.get(id, key);
        entries.set(k, cell);
        return cell;
      },
      async getCells(cells: readonly CellAddress[]) {
        const keys = cells.map(({ id, key }) => cellKey(ns.namespace, id, key));
        const hits = keys.map((k) => entries.get(k));
        const missing = new Map<string, CellAddress>();
        cells.forEach((c, i) => hits[i] === undefined && missing.set(keys[i] as string, c));
        const read = missing.size === 0 ? [] : await ns.getCells([...missing.values()]);
        const fresh = new Map([...missing.keys()].map((k, i) => [k, read[i]]));
        for (const [k, cell] of fresh) entries.set(k, cell);
        return cells.map((_, i) => (hits[i] === undefined ? fresh.get(keys[i] as string) : hits[i]?.value));
      },
    });

  /** Cache-key prefixes of the cached partitions `mutations` write; usually none (tombstones are rare). */
  const touchedPartitions = (mutations: readonly Mutation[]): string[] => {
    const touched: string[] = [];
    for (const m of mutations) if (cached.has(m.namespace)) touched.push(partitionPrefix(m.namespace, m.id));
    return touched;
  };
  const invalidate = (touched: readonly string[]) => {
    for (const k of [...entries.keys()]) if (touched.some((p) => k.startsWith(p))) entries.delete(k);
  };

  const store = decorateStore(inner, {
    namespace: (name) => (cached.has(name) ? wrap(inner.namespace(name)) : inner.namespace(name)),
    async mutateMany(mutations, options) {
      const touched = touchedPartitions(mutations);
      if (touched.length === 0) return inner.mutateMany(mutations, options);
      invalidate(touched);
      try {
        await inner.mutateMany(mutations, options);
      } finally {
        invalidate(touched); // a read that raced the write must not keep the old value
      }
    },
  });
  return Object.assign(store, { cacheStats: () => entries.stats() }); // keeps decorateStore's getters
}
