import { Histogram, type Registry } from 'prom-client';
import type { ReadObserver } from '../reads/index.ts';
import type { CacheStats } from '../sinks/caches/CacheStats.ts';
import { registerCacheMetrics } from './registerCacheMetrics.ts';

/** Latency buckets of a reader call, seconds: a cached point read (~0.5 ms) to a long traverse (10 s). */
const SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** PartitionReader calls per reader call: 1 for a point read, more for validated newest pages, bags and traversals. */
const QUERIES = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1_024, 4_096];

export interface ReadMetrics {
  /** Pass to `createEdgeReader({ observer })`. */
  readonly observer: ReadObserver;
  /** The property cache's counters as told by the reader. */
  propertyCache(): CacheStats;
}

/**
 * The read side's series, fed by the reader through its ReadObserver hook:
 * `edgestream_read_duration_seconds{operation,outcome}`,
 * `edgestream_read_queries{operation}` (PartitionReader calls per reader call)
 * and the property cache and newest-page validation guesses under
 * `edgestream_cache_*{cache="property"|"page_validation"}`.
 * One ReadMetrics per registry.
 */
export function createReadMetrics(registry: Registry): ReadMetrics {
  const duration = new Histogram({
    name: 'edgestream_read_duration_seconds',
    help: 'Latency of reader calls, by operation and outcome (ok, invalid: bad arguments, error).',
    labelNames: ['operation', 'outcome'],
    buckets: SECONDS,
    registers: [registry],
  });
  const queries = new Histogram({
    name: 'edgestream_read_queries',
    help: 'PartitionReader calls (point reads and pages) per reader call; a page of a split partition counts once.',
    labelNames: ['operation'],
    buckets: QUERIES,
    registers: [registry],
  });
  let lookups = 0;
  let hits = 0;
  const propertyCache = (): CacheStats => ({ lookups, hits }); // the reader owns the cache; its size is not told
  const guesses = { lookups: 0, hits: 0 };
  registerCacheMetrics(registry, { property: propertyCache, page_validation: () => ({ ...guesses }) });
  return {
    observer: {
      read({ operation, seconds, queries: n, outcome }) {
        duration.observe({ operation, outcome }, seconds);
        queries.observe({ operation }, n);
      },
      propertyCache(l, h) {
        lookups += l;
        hits += h;
      },
      pageValidationGuess(hit) {
        guesses.lookups++;
        if (hit) guesses.hits++;
      },
    },
    propertyCache,
  };
}
