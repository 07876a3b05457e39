/** Counters of a cache since it was created (monotonic; metrics turn them into ratios). */
export interface CacheStats {
  /** Lookups that asked the cache. */
  readonly lookups: number;
  /** Lookups the cache answered. */
  readonly hits: number;
  /** Entries held now, when the cache's owner knows it. */
  readonly entries?: number;
}
