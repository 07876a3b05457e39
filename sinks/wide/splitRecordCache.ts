import type { WideRowRecord } from '../namespaces/index.ts';

interface CachedRecord {
  readonly record: WideRowRecord | undefined;
  readonly expiresAt: number;
}

/** The split directory's record cache: a record read (or primed) is kept `ttlMs`; one read per key in flight. */
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
  return {
    async get(namespace, partitionId) {
      const k = partitionKey(namespace, partitionId);
      const cached = cache.get(k);
      if (cached instanceof Promise) return cached;
      if (cached !== undefined && cached.expiresAt > now()) return cached.record;
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
