import type { DlqReason } from './failures/headers.ts';
import type { LinkCacheStats } from './store/linkCache.ts';

/** Counters of one runtime (monotonic since start; the progress log turns them into rates). */
export interface RuntimeMetricsSnapshot {
  /** Records consumed and settled (done, repaired or dead-lettered) and committed. */
  readonly records: number;
  /** Chunks settled and committed: records ÷ chunks is how many records a chunk's fixed costs were shared by (`runtime.inputFetch`). */
  readonly chunks: number;
  /** Records whose writes all landed. */
  readonly done: number;
  readonly sentToRepair: number;
  readonly deadLettered: Readonly<Partial<Record<DlqReason, number>>>;
  /** Mutations handed to the store (after link-cache suppression). */
  readonly mutations: number;
  /** Back-offs slept by write/read/emit retries. */
  readonly retries: number;
  /** Events published by processors (emits). */
  readonly emitted: number;
  /** Chunks re-delivered because the hand-off to repair/DLQ failed or the registry was down. */
  readonly batchRetries: number;
  /** Records found outside their routing key's partition and forwarded to it (see EventProcessor.routingKey). */
  readonly forwarded: number;
  readonly linkCache?: LinkCacheStats;
}

export interface RuntimeMetrics {
  count(name: 'records' | 'chunks' | 'done' | 'sentToRepair' | 'mutations' | 'retries' | 'emitted' | 'batchRetries' | 'forwarded', n?: number): void;
  deadLettered(reason: DlqReason): void;
  snapshot(): RuntimeMetricsSnapshot;
}

export function createRuntimeMetrics(linkCacheStats?: () => LinkCacheStats): RuntimeMetrics {
  const counters = { records: 0, chunks: 0, done: 0, sentToRepair: 0, mutations: 0, retries: 0, emitted: 0, batchRetries: 0, forwarded: 0 };
  const dlq: Partial<Record<DlqReason, number>> = {};
  return {
    count(name, n = 1) {
      counters[name] += n;
    },
    deadLettered(reason) {
      dlq[reason] = (dlq[reason] ?? 0) + 1;
    },
    snapshot: () => ({ ...counters, deadLettered: { ...dlq }, ...(linkCacheStats ? { linkCache: linkCacheStats() } : {}) }),
  };
}

/** Progress between two snapshots, as logged at info level. */
export function progressLine(prev: RuntimeMetricsSnapshot, next: RuntimeMetricsSnapshot, elapsedMs: number): Record<string, unknown> {
  const perSecond = (a: number, b: number): number => (elapsedMs > 0 ? Math.round(((b - a) * 1000) / elapsedMs) : 0);
  const cache = next.linkCache;
  const cachePrev = prev.linkCache;
  const lookups = (cache?.lookups ?? 0) - (cachePrev?.lookups ?? 0);
  const suppressed = (cache?.suppressed ?? 0) - (cachePrev?.suppressed ?? 0);
  return {
    events_per_s: perSecond(prev.records, next.records),
    records: next.records,
    records_per_chunk: next.chunks > prev.chunks ? Math.round(((next.records - prev.records) / (next.chunks - prev.chunks)) * 10) / 10 : 0,
    sent_to_repair: next.sentToRepair,
    dead_lettered: next.deadLettered,
    retries: next.retries,
    batch_retries: next.batchRetries,
    ...(cache
      ? {
          link_cache: {
            entries: cache.entries,
            suppressed_total: cache.suppressed,
            suppressed_per_s: perSecond(0, suppressed),
            suppression_rate: lookups > 0 ? Number((suppressed / lookups).toFixed(4)) : 0,
          },
        }
      : {}),
  };
}
