import type { Registry } from 'prom-client';
import type { CacheStats } from '../sinks/caches/CacheStats.ts';
import type { LinkCacheStats } from '../streams/runtime/index.ts';
import { snapshotCounter, snapshotGauge } from './snapshotMetrics.ts';

/** The caches metrics know by name: the write path's link and tombstone caches, the reader's property cache and newest-page validation guesses. */
export type CacheName = 'link' | 'tombstone' | 'property' | 'page_validation';

/** The cache sources of each registry: registering again adds caches to the same three series. */
const sourcesOf = new WeakMap<Registry, Map<CacheName, () => CacheStats>>();

/**
 * `edgestream_cache_lookups_total`, `_hits_total` and `edgestream_cache_entries`,
 * labelled `cache`, read from each cache's own counters at scrape time. May be
 * called more than once per registry (a processor and a reader in one process);
 * a cache name registered twice throws.
 */
export function registerCacheMetrics(registry: Registry, caches: Partial<Record<CacheName, () => CacheStats>>): void {
  let sources = sourcesOf.get(registry);
  if (sources === undefined) {
    const all = new Map<CacheName, () => CacheStats>();
    sources = all;
    sourcesOf.set(registry, all);
    const series = (pick: (s: CacheStats) => number | undefined) => () =>
      [...all].flatMap(([cache, stats]) => {
        const value = pick(stats());
        return value === undefined ? [] : [{ labels: { cache }, value }];
      });
    snapshotCounter(registry, { name: 'edgestream_cache_lookups_total', help: 'Lookups that asked the cache.', labelNames: ['cache'], read: series((s) => s.lookups) });
    snapshotCounter(registry, {
      name: 'edgestream_cache_hits_total',
      help: 'Lookups the cache answered (link cache: additions it proved redundant and dropped).',
      labelNames: ['cache'],
      read: series((s) => s.hits),
    });
    snapshotGauge(registry, { name: 'edgestream_cache_entries', help: 'Entries the cache holds.', labelNames: ['cache'], read: series((s) => s.entries) });
  }
  for (const [name, stats] of Object.entries(caches) as [CacheName, (() => CacheStats) | undefined][]) {
    if (stats === undefined) continue;
    if (sources.has(name)) throw new Error(`cache metrics: '${name}' is already registered on this registry`);
    sources.set(name, stats);
  }
}

/** The link cache's counters as cache stats: a hit is an addition the cache proved redundant (suppressed). */
export function linkCacheAsCacheStats(stats: LinkCacheStats): CacheStats {
  return { lookups: stats.lookups, hits: stats.suppressed, entries: stats.entries };
}
