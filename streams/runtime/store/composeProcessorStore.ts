import type { CacheStats } from '../../../sinks/caches/CacheStats.ts';
import { createExpiringReadCache, type ExpiringReadCacheOptions } from '../../../sinks/caches/createExpiringReadCache.ts';
import type { TwoLevelMapStore } from '../../../sinks/store/index.ts';
import { createSplitMirroringStore, type SplitDirectory } from '../../../sinks/wide/index.ts';
import { createLinkCachingStore } from './createLinkCachingStore.ts';
import type { LinkCache } from './linkCache.ts';

/** The layers a processor's store may have; each is left out when absent. */
export interface ProcessorStoreParts {
  /** Where everything lands. */
  readonly store: TwoLevelMapStore;
  /** The split mirror: writes of a partition being split also go to its buckets (sinks/wide). */
  readonly splitMirror?: { readonly directory: SplitDirectory; readonly namespaces: ReadonlySet<string> };
  /** The read-aside cache of node tombstones (sinks/caches, `runtime.tombstoneCacheTtlMs`). */
  readonly tombstoneCache?: ExpiringReadCacheOptions;
  /** The write-aside link cache; pass one instance to every runner that writes the same partitions. */
  readonly linkCache?: LinkCache;
}

/** A processor's composed store: the top of the stack, and the caches in it (for metrics). */
export interface ProcessorStore {
  /** What the processor's reads and writes go through. */
  readonly top: TwoLevelMapStore;
  readonly linkCache?: LinkCache;
  readonly tombstoneCacheStats?: () => CacheStats;
}

/**
 * The one place a processor's store decorators are stacked, in this order
 * (docs/architecture.md §5 "The processor's store"):
 *
 *   link cache → tombstone cache → split mirror → store
 *
 * The mirror sits on the store, so every write a layer above passes on reaches
 * the split buckets with exactly the additions that reach the original. The
 * link cache sits on top: it records a write only when it landed through every
 * layer below (a failed bucket copy fails its source mutation), so a duplicate
 * it drops is redundant in the original and in the buckets and costs no write.
 * The tombstone cache is on the same write path, so this process's own node
 * tombstones drop its cached "none" at once.
 */
export function composeProcessorStore(parts: ProcessorStoreParts): ProcessorStore {
  const mirrored = parts.splitMirror ? createSplitMirroringStore(parts.store, parts.splitMirror) : parts.store;
  const tombstones = parts.tombstoneCache ? createExpiringReadCache(mirrored, parts.tombstoneCache) : undefined;
  const belowLinks = tombstones ?? mirrored;
  return {
    top: parts.linkCache ? createLinkCachingStore(belowLinks, parts.linkCache) : belowLinks,
    ...(parts.linkCache ? { linkCache: parts.linkCache } : {}),
    ...(tombstones ? { tombstoneCacheStats: () => tombstones.cacheStats() } : {}),
  };
}

/** Whether `store` is already composed (a runner then uses it as it is). */
export function isProcessorStore(store: TwoLevelMapStore | ProcessorStore): store is ProcessorStore {
  return 'top' in store;
}
