import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { directoryMaxStaleMs, type EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { splittableNamespaces, type WideRowRecord, type WideRowStatus } from '../namespaces/index.ts';
import type { TwoLevelMapStore } from '../store/index.ts';
import { createPartitionFilter, type PartitionFilter } from './createPartitionFilter.ts';
import { createWideRowRepository, type WideRowRepository } from './wideRowRepository.ts';

/** Keys added to the filter between two yields to the event loop: a 1M-record reload must not stall the write path. */
const BUILD_SLICE = 20_000;

export interface SplitDirectoryOptions {
  /** Where records live: every id per reload, one record on demand. */
  readonly repository: Pick<WideRowRepository, 'entries' | 'get'>;
  /** The namespaces that can be split (sinks/namespaces splittableNamespaces). */
  readonly namespaces: readonly string[];
  /** Bloom filter reload period; also how long a record stays cached. */
  readonly refreshMs: number;
  /** Past this age (since the last successful reload began) the directory is stale: writers fail closed, readers read the original. */
  readonly maxStaleMs: number;
  readonly falsePositiveRate: number;
  readonly nowMs?: () => number;
  /** Told about a failed reload (the previous filter keeps serving until it is stale). */
  readonly onRefreshError?: (error: unknown, state: DirectoryState) => void;
  /** Records a reload keeps cached (default 10 000); more are read on demand, so a million-record directory stays a filter. */
  readonly primeLimit?: number;
}

/**
 * Which partitions have a split, for readers and writers (docs/architecture.md
 * §6 "Serving"). Every `refreshMs` it reloads `wide_rows` into a Bloom filter
 * of `namespace ␀ id`: the common question "is this partition split?" is
 * answered in memory and almost always "no" (~0.2 µs, no I/O). On a hit the
 * record is read through a cache that keeps it for `refreshMs`, so a status
 * change reaches every reader and writer within two refreshes (the bound the
 * splitter waits for, `splitMirrorBarrierMs`). A record written after the last
 * reload is not in the filter yet: that bound covers it only while reloads
 * work, so callers must not trust a directory that is not `isFresh()`.
 */
export interface SplitDirectory {
  /** Loads the filter once; then reloads every `refreshMs` until `stop`. */
  start(): Promise<void>;
  stop(): void;
  /** Reloads now. */
  refresh(): Promise<void>;
  /** False means certainly not split (Bloom filters have no false negatives for what they were loaded with). */
  mightHaveRecord(namespace: string, partitionId: string): boolean;
  /** The (cached) record of a partition the filter hit; undefined for a false positive. */
  record(namespace: string, partitionId: string): Promise<WideRowRecord | undefined>;
  /** Milliseconds since the last successful reload began (Infinity before the first). */
  ageMs(): number;
  /** `ageMs() <= maxStaleMs`: the filter holds every record written more than `maxStaleMs` ago. */
  isFresh(): boolean;
  readonly maxStaleMs: number;
  /** `checks` and `hits` count `mightHaveRecord` calls and its positives; `byStatus` counts the records of the last reload. */
  readonly stats: {
    readonly records: number;
    readonly filterBits: number;
    readonly refreshes: number;
    readonly checks: number;
    readonly hits: number;
    readonly byStatus: Readonly<Partial<Record<WideRowStatus, number>>>;
  };
}

/** How old a directory is, for log lines. */
export interface DirectoryState {
  readonly ageMs: number;
  readonly stale: boolean;
}

interface CachedRecord {
  readonly record: WideRowRecord | undefined;
  readonly expiresAt: number;
}

export function createSplitDirectory(opts: SplitDirectoryOptions): SplitDirectory {
  const now = opts.nowMs ?? Date.now;
  const key = (ns: string, id: string) => `${ns}\u0000${id}`;
  const primeLimit = opts.primeLimit ?? 10_000;
  let filter: PartitionFilter | undefined;
  const cache = new Map<string, CachedRecord | Promise<WideRowRecord | undefined>>();
  const stats = { records: 0, filterBits: 0, refreshes: 0, checks: 0, hits: 0, byStatus: {} as Partial<Record<WideRowStatus, number>> };
  let timer: NodeJS.Timeout | undefined;
  /** When the reload whose records are loaded began: they hold every record written before then. */
  let loadedAtMs = -Infinity;

  const refresh = async () => {
    const startedAtMs = now();
    const keys: { ns: string; id: string }[] = [];
    const primed: WideRowRecord[] = [];
    const byStatus: Partial<Record<WideRowStatus, number>> = {};
    for (const ns of opts.namespaces) {
      for await (const entry of opts.repository.entries(ns)) {
        keys.push({ ns, id: entry.partitionId });
        const status = entry.status();
        byStatus[status] = (byStatus[status] ?? 0) + 1;
        if (primed.length < primeLimit) primed.push(entry.record());
      }
    }
    const next = createPartitionFilter(keys.length, opts.falsePositiveRate);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as { ns: string; id: string };
      next.add(k.ns, k.id);
      if (i % BUILD_SLICE === BUILD_SLICE - 1) await yieldToEventLoop();
    }
    if (startedAtMs < loadedAtMs) return; // a newer reload already landed
    filter = next;
    // Records just read are fresher than anything cached.
    const expiresAt = now() + opts.refreshMs;
    cache.clear();
    for (const r of primed) cache.set(key(r.namespace, r.partitionId), { record: r, expiresAt });
    stats.records = keys.length;
    stats.byStatus = byStatus;
    stats.filterBits = next.bits;
    stats.refreshes++;
    loadedAtMs = startedAtMs;
  };
  const ageMs = () => now() - loadedAtMs;

  return {
    async start() {
      await refresh();
      const tick = () => {
        timer = setTimeout(() => {
          refresh().catch((e: unknown) => opts.onRefreshError?.(e, { ageMs: ageMs(), stale: ageMs() > opts.maxStaleMs })).finally(() => {
            if (timer !== undefined) tick();
          });
        }, opts.refreshMs);
        timer.unref();
      };
      tick();
    },
    stop() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
    refresh,
    ageMs,
    isFresh: () => ageMs() <= opts.maxStaleMs,
    maxStaleMs: opts.maxStaleMs,
    mightHaveRecord(namespace, partitionId) {
      stats.checks++;
      // No record at all (the usual state of a store) needs no hashing: the write path asks for every mutation.
      if (stats.records === 0) return false;
      const hit = filter?.has(namespace, partitionId) ?? false;
      if (hit) stats.hits++;
      return hit;
    },
    async record(namespace, partitionId) {
      const k = key(namespace, partitionId);
      const cached = cache.get(k);
      if (cached instanceof Promise) return cached;
      if (cached !== undefined && cached.expiresAt > now()) return cached.record;
      const loading = opts.repository.get(namespace, partitionId);
      cache.set(k, loading);
      try {
        const record = await loading;
        cache.set(k, { record, expiresAt: now() + opts.refreshMs });
        return record;
      } catch (e) {
        cache.delete(k);
        throw e;
      }
    },
    stats,
  };
}

/** The directory of every splittable namespace of `config`, as writers and readers both use it. */
export function createConfiguredSplitDirectory(
  store: TwoLevelMapStore,
  config: Pick<EdgestreamConfig, 'edgeTypes' | 'wide'>,
  onRefreshError?: SplitDirectoryOptions['onRefreshError'],
): SplitDirectory {
  return createSplitDirectory({
    repository: createWideRowRepository(store),
    namespaces: [...splittableNamespaces(config.edgeTypes).keys()],
    refreshMs: config.wide.directoryRefreshMs,
    maxStaleMs: directoryMaxStaleMs(config),
    falsePositiveRate: config.wide.bloomFalsePositiveRate,
    ...(onRefreshError ? { onRefreshError } : {}),
  });
}
