import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { directoryMaxStaleMs, type EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { splittableNamespaces, type WideRowRecord, type WideRowStatus } from '../namespaces/index.ts';
import type { TwoLevelMapStore } from '../store/index.ts';
import { createPartitionFilter, type PartitionFilter } from './createPartitionFilter.ts';
import { createSplitRecordCache, partitionKey } from './splitRecordCache.ts';
import { createWideRowRepository, type WideRowRepository } from './wideRowRepository.ts';

/** Keys added to a new filter between two yields to the event loop: a 1M-record full reload must not stall the write path. */
const BUILD_SLICE = 20_000;
/** A full reload sizes its filter for this many times the records it found, so the change log can add to it until the next one. */
const GROWTH_HEADROOM = 1.25;
export const DEFAULT_LOG_LOOKBACK_MS = 30_000;
export const DEFAULT_REBUILD_MS = 600_000;

export interface SplitDirectoryOptions {
  /** Where records live: every id per full reload, the change log per refresh, one record on demand. */
  readonly repository: Pick<WideRowRepository, 'entries' | 'changes' | 'get'>;
  /** The namespaces that can be split (sinks/namespaces splittableNamespaces). */
  readonly namespaces: readonly string[];
  /** Change-log refresh period; also how long a record stays cached. */
  readonly refreshMs: number;
  /** Past this age (since the last successful load began) the directory is stale: writers fail closed, readers read the original. */
  readonly maxStaleMs: number;
  readonly falsePositiveRate: number;
  /**
   * How far before the last load's start a refresh reads the change log again (default 30 s): it must cover the
   * writers' clock skew against this process plus the longest a log write can take to land, or a change is missed
   * until the next full reload.
   */
  readonly logLookbackMs?: number;
  /** Period of the background full reloads (default 10 min); one also starts when the log has filled the filter to its capacity. */
  readonly rebuildMs?: number;
  readonly nowMs?: () => number;
  /** Told about a failed load (the previous filter keeps serving until it is stale). */
  readonly onRefreshError?: (error: unknown, state: DirectoryState) => void;
  /** Records a full reload keeps cached (default 10 000); more are read on demand, so a million-record directory stays a filter. */
  readonly primeLimit?: number;
}

/**
 * Which partitions have a split, for readers and writers (docs/architecture.md
 * §6 "Serving"). A Bloom filter of `namespace ␀ id` answers the common question
 * "is this partition split?" in memory (~0.1 µs, no I/O), almost always "no".
 * It is loaded in full at start and then kept current from the change log
 * (`wide_rows_log`, written before every record): every `refreshMs` a refresh
 * reads only the entries logged since the last load began (less
 * `logLookbackMs`) and adds their ids; every `rebuildMs`, or when the log has
 * filled it, a full reload builds a new filter in the background and swaps it
 * in with what the log added meanwhile. On a hit the record is read through a
 * cache that keeps it for `refreshMs` (a logged change drops it at once), so a
 * status change reaches every reader and writer within two refreshes (the bound
 * the splitter waits for, `splitMirrorBarrierMs`). A record written after the
 * last load is not in the filter yet: that bound covers it only while loads
 * work, so callers must not trust a directory that is not `isFresh()`.
 */
export interface SplitDirectory {
  /** Loads the filter in full once; then refreshes every `refreshMs` until `stop`. */
  start(): Promise<void>;
  stop(): void;
  /** Reads the change log since the last load now (a full reload when nothing is loaded yet). */
  refresh(): Promise<void>;
  /** A full reload now (joins the one running): every id of `wide_rows` into a new filter sized for them. */
  rebuild(): Promise<void>;
  /** False means certainly not split (Bloom filters have no false negatives for what they were loaded with). */
  mightHaveRecord(namespace: string, partitionId: string): boolean;
  /** The (cached) record of a partition the filter hit; undefined for a false positive. */
  record(namespace: string, partitionId: string): Promise<WideRowRecord | undefined>;
  /** Milliseconds since the last successful load (full or from the log) began (Infinity before the first). */
  ageMs(): number;
  /** `ageMs() <= maxStaleMs`: the filter holds every record written more than `maxStaleMs` ago. */
  isFresh(): boolean;
  readonly maxStaleMs: number;
  /**
   * `records`: the last full reload's records plus the ids the log added since (an upper bound: an id may be both);
   * `refreshes` counts successful loads of either kind, `rebuilds` the full ones; `byStatus` counts the records of the
   * last full reload; `checks` and `hits` count `mightHaveRecord` calls and its positives.
   */
  readonly stats: {
    readonly records: number;
    readonly filterBits: number;
    /** Keys the filter was sized for at its target rate: the last full reload's records × 1.25 (room for the log to add to). */
    readonly filterCapacity: number;
    readonly refreshes: number;
    readonly rebuilds: number;
    readonly logEntriesRead: number;
    readonly checks: number;
    readonly hits: number;
    readonly byStatus: Readonly<Partial<Record<WideRowStatus, number>>>;
  };
}

/** How old a directory is, for log lines. */
export interface DirectoryState {
  readonly ageMs: number;
  readonly stale: boolean;
  /** Which load failed: a refresh from the change log or a full reload. */
  readonly load: 'log' | 'full';
}

type Change = readonly [namespace: string, partitionId: string];

export function createSplitDirectory(opts: SplitDirectoryOptions): SplitDirectory {
  const now = opts.nowMs ?? Date.now;
  const lookbackMs = opts.logLookbackMs ?? DEFAULT_LOG_LOOKBACK_MS;
  const rebuildMs = opts.rebuildMs ?? DEFAULT_REBUILD_MS;
  const primeLimit = opts.primeLimit ?? 10_000;
  const cache = createSplitRecordCache((ns, id) => opts.repository.get(ns, id), opts.refreshMs, now);
  const stats = { records: 0, filterBits: 0, filterCapacity: 0, refreshes: 0, rebuilds: 0, logEntriesRead: 0, checks: 0, hits: 0, byStatus: {} as Partial<Record<WideRowStatus, number>> };
  let filter: PartitionFilter | undefined;
  /** Ids the log added to `filter` since its full reload began. */
  let logged = new Set<string>();
  let fullRecords = 0;
  /** The running full reload and the ids the log adds while it runs (re-applied to its filter at the swap). */
  let rebuilding: { readonly promise: Promise<void>; readonly changed: Map<string, Change> } | undefined;
  let lastRebuildStartMs = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  /**
   * When the last successful load began: `filter` holds every record whose write finished before then. Only grows:
   * a log refresh covers its start (it read every entry since an earlier such time less the lookback), and a full
   * reload's filter plus what the log added since it began covers its start and every later refresh's.
   */
  let loadedAtMs = -Infinity;

  const noteChange = (f: PartitionFilter, namespace: string, partitionId: string) => {
    const k = partitionKey(namespace, partitionId);
    cache.forget(namespace, partitionId); // rewritten: the cached record may be the old one
    rebuilding?.changed.set(k, [namespace, partitionId]);
    if (logged.has(k)) return; // re-read within the lookback
    logged.add(k);
    f.add(namespace, partitionId);
    stats.records = fullRecords + logged.size;
  };

  const readLog = async (): Promise<void> => {
    if (filter === undefined) return rebuild();
    const startedAtMs = now();
    const changes: Change[] = [];
    for (const ns of opts.namespaces) {
      for await (const id of opts.repository.changes(ns, loadedAtMs - lookbackMs, startedAtMs + lookbackMs)) changes.push([ns, id]);
    }
    // The filter now (a full reload may have swapped in a new one meanwhile: it covers at least what this one did).
    const current = filter;
    for (const [ns, id] of changes) noteChange(current, ns, id);
    stats.logEntriesRead += changes.length;
    stats.refreshes++;
    loadedAtMs = Math.max(loadedAtMs, startedAtMs);
  };

  const fullReload = async (changed: Map<string, Change>): Promise<void> => {
    const startedAtMs = now();
    lastRebuildStartMs = startedAtMs;
    const found: { readonly ns: string; readonly ids: string[] }[] = [];
    const primed: WideRowRecord[] = [];
    const byStatus: Partial<Record<WideRowStatus, number>> = {};
    let count = 0;
    for (const ns of opts.namespaces) {
      const ids: string[] = [];
      for await (const entry of opts.repository.entries(ns)) {
        ids.push(entry.partitionId);
        const status = entry.status();
        byStatus[status] = (byStatus[status] ?? 0) + 1;
        if (primed.length < primeLimit) primed.push(entry.record());
      }
      found.push({ ns, ids });
      count += ids.length;
    }
    const next = createPartitionFilter(Math.ceil(count * GROWTH_HEADROOM), opts.falsePositiveRate);
    let added = 0;
    for (const { ns, ids } of found) {
      for (const id of ids) {
        next.add(ns, id);
        if (++added % BUILD_SLICE === 0) await yieldToEventLoop();
      }
    }
    // No await from here on: readers and writers see the old filter or the new one with every change logged meanwhile.
    for (const [ns, id] of changed.values()) next.add(ns, id);
    filter = next;
    logged = new Set(changed.keys());
    fullRecords = count;
    cache.prime(primed, logged);
    stats.records = fullRecords + logged.size;
    stats.byStatus = byStatus;
    stats.filterBits = next.bits;
    stats.filterCapacity = next.capacity;
    stats.refreshes++;
    stats.rebuilds++;
    loadedAtMs = Math.max(loadedAtMs, startedAtMs);
  };

  const rebuild = (): Promise<void> => {
    if (rebuilding !== undefined) return rebuilding.promise;
    const changed = new Map<string, Change>();
    const promise = fullReload(changed).finally(() => {
      rebuilding = undefined;
    });
    rebuilding = { promise, changed };
    return promise;
  };

  const ageMs = () => now() - loadedAtMs;
  const report = (load: DirectoryState['load']) => (e: unknown) => opts.onRefreshError?.(e, { ageMs: ageMs(), stale: ageMs() > opts.maxStaleMs, load });
  const rebuildDue = () => rebuilding === undefined && (now() - lastRebuildStartMs >= rebuildMs || (filter !== undefined && filter.count > filter.capacity));

  return {
    async start() {
      await rebuild();
      const tick = () => {
        timer = setTimeout(() => {
          // In the background: a refresh never waits for a full reload, so the directory stays fresh while one runs.
          if (rebuildDue()) rebuild().catch(report('full'));
          readLog()
            .catch(report('log'))
            .finally(() => {
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
    refresh: readLog,
    rebuild,
    ageMs,
    isFresh: () => ageMs() <= opts.maxStaleMs,
    maxStaleMs: opts.maxStaleMs,
    mightHaveRecord(namespace, partitionId) {
      stats.checks++;
      // No record at all (the usual state of a store) needs no hashing: the write path asks for every mutation.
      if (stats.records === 0 || filter === undefined) return false;
      const hit = filter.has(namespace, partitionId);
      if (hit) stats.hits++;
      return hit;
    },
    record: (namespace, partitionId) => cache.get(namespace, partitionId),
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
    logLookbackMs: config.wide.directoryLogLookbackMs,
    rebuildMs: config.wide.directoryRebuildMs,
    ...(onRefreshError ? { onRefreshError } : {}),
  });
}
