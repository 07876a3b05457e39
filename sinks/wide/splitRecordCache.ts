import type { WideRowRecord } from '../namespaces/index.ts';

interface CachedRecord {
  readonly record: WideRowRecord | undefined;
  readonly expiresAt: number;
}

/**
 * The split directory's record cache: a record read (or primed) is kept
 * `ttlMs`; one read per key in flight. A record read in the second half of its
 * life is read again in the background while the cached one is served, so a
 * hot partition's reads never wait for its record (before, every `ttlMs` one
 * read of a split celebrity's page waited for a wide_rows read: its p99). No
 * record older than `ttlMs` is ever served, as before.
 */
export interface SplitRecordCache {
  get(namespace: string, partitionId: string): Promise<WideRowRecord | undefined>;
  /** Replaces every entry with these records (read by a full reload), except those of `changed`, which changed since. */
  prime(records: readonly WideRowRecord[], changed: ReadonlySet<string>): void;
  /** Forgets one record (the change log says it was rewritten). */
  forget(namespace: string, partitionId: string): void;
}

export const partitionKey = (namespace: string, partitionId: string): string => `${namespace}\u0000${partitionId}`;

export function createSplitRecordCache(read: (namespace: string, partitionId: string) => Promise<WideRowRecord | undefined>, ttlMs: number, now: () => number): SplitRecordCache {
  const cache = new Map<string, CachedRecord | Promise<WideRowRecord | undefined>>();
  const refreshing = new Set<string>();
  /** Reads the record again while `entry` is served; replaces it only if nothing (a forget, a prime) replaced it meanwhile. */
  const refreshAhead = (k: string, namespace: string, partitionId: string, entry: CachedRecord): void => {
    refreshing.add(k);
    read(namespace, partitionId).then(
      (record) => {
        refreshing.delete(k);
        if (cache.get(k) === entry) cache.set(k, { record, expiresAt: now() + ttlMs });
      },
      () => refreshing.delete(k), // the entry expires as usual; the next read after that waits and reports
    );
  };
  return {
    async get(namespace, partitionId) {
      const k = partitionKey(namespace, partitionId);
      const cached = cache.get(k);
      if (cached instanceof Promise) return cached;
      const t = now();
      if (cached !== undefined && cached.expiresAt > t) {
        if (cached.expiresAt - t < ttlMs / 2 && !refreshing.has(k)) refreshAhead(k, namespace, partitionId, cached);
        return cached.record;
      }
      const loading = read(namespace, partitionId);
      cache.set(k, loading);
      try {
        const record = await loading;
        // A forget() while it was loading means the record changed meanwhile: do not keep what may be the old one.
        if (cache.get(k) === loading) cache.set(k, { record, expiresAt: now() + ttlMs });
        return record;
      } catch (e) {
        if (cache.get(k) === loading) cache.delete(k);
        throw e;
      }
    },
    prime(records, changed) {
      const expiresAt = now() + ttlMs;
      cache.clear();
      for (const r of records) {
        const k = partitionKey(r.namespace, r.partitionId);
        if (!changed.has(k)) cache.set(k, { record: r, expiresAt });
      }
    },
    forget(namespace, partitionId) {
      cache.delete(partitionKey(namespace, partitionId));
    },
  };
}
