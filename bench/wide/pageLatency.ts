import type { EdgeReader } from '../../reads/index.ts';
import type { createStatusLine } from '../ingest/progressLine.ts';
import { latencySummary } from '../ingest/stats.ts';

export interface PageLatency {
  readonly samples: number;
  readonly limit: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly meanMs: number;
  /** Items on the page (the same on every sample: nothing is written meanwhile). */
  readonly items: number;
  /** The newest item's peer and time, to check the page is the same before and after the split. */
  readonly newest: { readonly peer: string; readonly time: string } | undefined;
}

const WARMUP = 5;

/**
 * The newest page of `vertex`'s in-neighbours (`reader.in(type, vertex,
 * {limit})`: one slice of `T_in_recent` plus the validation point reads of
 * `T_in`), `samples` times one after the other, after a few unmeasured
 * warm-up calls. Latency = the call's wall time in this process.
 */
export async function measureNewestPage(o: {
  reader: EdgeReader;
  edgeType: string;
  vertex: string;
  limit: number;
  samples: number;
  status: ReturnType<typeof createStatusLine>;
  label: string;
}): Promise<PageLatency> {
  let items = 0;
  let newest: PageLatency['newest'];
  for (let i = 0; i < WARMUP; i++) await o.reader.in(o.edgeType, o.vertex, { limit: o.limit });
  const ms: number[] = [];
  for (let i = 0; i < o.samples; i++) {
    const t0 = performance.now();
    const page = await o.reader.in(o.edgeType, o.vertex, { limit: o.limit });
    ms.push(performance.now() - t0);
    items = page.items.length;
    const first = page.items[0];
    newest = first ? { peer: first.peer, time: first.time.toString() } : undefined;
    o.status.update(`${o.label}: ${i + 1}/${o.samples} pages`);
  }
  o.status.done();
  return { ...latencySummary(ms), limit: o.limit, items, newest };
}
