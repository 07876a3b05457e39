import { isStoreError, type Mutation, type TwoLevelMapStore } from '../../sinks/store/index.ts';
import type { createStatusLine } from '../ingest/progressLine.ts';
import { fmt, round } from '../ingest/stats.ts';

export interface LoadResult {
  readonly events: number;
  /** Cells written (additions) and deleted (row tombstones). */
  readonly additions: number;
  readonly deletions: number;
  readonly seconds: number;
  readonly eventsPerSecond: number;
  readonly rowsPerSecond: number;
  /** mutateMany calls retried after a retriable StoreError. */
  readonly retries: number;
}

const MAX_ATTEMPTS = 6;

/**
 * Writes the mutations of `events` (one list per event) straight to the store
 * with `mutateMany`: `batch` events per call, `concurrency` calls in flight.
 * One celebrity's writes all go to two partitions, and the store writes one
 * partition group's batches one after the other, so parallelism comes from
 * many small calls. A retriable StoreError (a timeout under load) is retried
 * with back-off: every write is idempotent.
 */
export async function loadMutations(o: {
  store: TwoLevelMapStore;
  events: Iterator<readonly Mutation[]>;
  total: number;
  batch: number;
  concurrency: number;
  status: ReturnType<typeof createStatusLine>;
  label: string;
}): Promise<LoadResult> {
  let events = 0;
  let additions = 0;
  let deletions = 0;
  let retries = 0;
  let failure: unknown;
  const t0 = performance.now();
  const ticker = setInterval(() => {
    const secs = (performance.now() - t0) / 1000;
    o.status.update(`${o.label}: ${fmt(events)}/${fmt(o.total)} events (${Math.round((100 * events) / Math.max(1, o.total))}%), ${fmt((additions + deletions) / secs)} rows/s, ${secs.toFixed(0)} s`);
  }, 250);
  const take = (): { mutations: Mutation[]; events: number } | undefined => {
    const mutations: Mutation[] = [];
    let n = 0;
    while (n < o.batch) {
      const next = o.events.next();
      if (next.done) break;
      mutations.push(...next.value);
      n++;
    }
    return n === 0 ? undefined : { mutations, events: n };
  };
  const worker = async (): Promise<void> => {
    for (;;) {
      if (failure !== undefined) return;
      const chunk = take();
      if (chunk === undefined) return;
      const { mutations } = chunk;
      for (let attempt = 1; ; attempt++) {
        try {
          await o.store.mutateMany(mutations);
          break;
        } catch (e) {
          if (!isStoreError(e) || !e.retriable || attempt >= MAX_ATTEMPTS) {
            failure ??= e;
            return;
          }
          retries++;
          await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
        }
      }
      events += chunk.events;
      for (const m of mutations) {
        additions += m.additions.length;
        deletions += m.deletions.length;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: o.concurrency }, worker));
  } finally {
    clearInterval(ticker);
  }
  if (failure !== undefined) throw failure;
  const seconds = (performance.now() - t0) / 1000;
  return { events, additions, deletions, seconds: round(seconds, 1), eventsPerSecond: Math.round(events / seconds), rowsPerSecond: Math.round((additions + deletions) / seconds), retries };
}
