import { round } from '../ingest/stats.ts';

/** `<name>_sum` and `<name>_count` of a Prometheus histogram, per label set (the text inside the braces). */
export function histogramTotals(exposition: string, name: string): Map<string, { sum: number; count: number }> {
  const totals = new Map<string, { sum: number; count: number }>();
  const line = new RegExp(`^${name}_(sum|count)\\{([^}]*)\\} (\\S+)$`);
  for (const text of exposition.split('\n')) {
    const m = line.exec(text);
    if (!m) continue;
    const [, kind, labels = '', value] = m;
    const t = totals.get(labels) ?? { sum: 0, count: 0 };
    t[kind as 'sum' | 'count'] = Number(value);
    totals.set(labels, t);
  }
  return totals;
}

/** `<name>_bucket` counts of a histogram at the bound `le`, per label set without `le` (the text inside the braces). */
export function bucketCounts(exposition: string, name: string, le: string): Map<string, number> {
  const counts = new Map<string, number>();
  const line = new RegExp(`^${name}_bucket\\{([^}]*)\\} (\\S+)$`);
  for (const text of exposition.split('\n')) {
    const m = line.exec(text);
    if (!m) continue;
    const labels = (m[1] ?? '').split(',');
    if (!labels.includes(`le="${le}"`)) continue;
    counts.set(labels.filter((l) => !l.startsWith('le=')).join(','), Number(m[2]));
  }
  return counts;
}

/** An unlabelled gauge's value (× `scale`), or NaN when absent. */
export function gaugeValue(exposition: string, name: string, scale = 1): number {
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(exposition);
  return m ? round(Number(m[1]) * scale, 2) : Number.NaN;
}

/** The value of one label in a label set's text (`route="/v1/x",status="200"`). */
export const labelValue = (labels: string, name: string): string | undefined => new RegExp(`(?:^|,)${name}="([^"]*)"`).exec(labels)?.[1];

export interface MeanOver {
  readonly labels: string;
  readonly count: number;
  readonly mean: number;
  /** Shares of the observations above 10 ms and above 50 ms (latency histograms only): where the tail is. */
  readonly over10Ms?: number;
  readonly over50Ms?: number;
}

/**
 * Per label set, what was observed between two scrapes: how many, and their mean (× `scale`);
 * where the histogram has buckets at 0.01 and 0.05 (seconds), the shares above 10 and 50 ms.
 */
export function meansBetween(before: string, after: string, name: string, scale = 1): MeanOver[] {
  const a = histogramTotals(before, name);
  const within = (le: string) => ({ before: bucketCounts(before, name, le), after: bucketCounts(after, name, le) });
  const [ms10, ms50] = [within('0.01'), within('0.05')];
  return [...histogramTotals(after, name)]
    .map(([labels, t]) => {
      const b = a.get(labels) ?? { sum: 0, count: 0 };
      const count = t.count - b.count;
      const over = (w: typeof ms10) => {
        const at = w.after.get(labels);
        return at === undefined || count <= 0 ? undefined : round((count - (at - (w.before.get(labels) ?? 0))) / count, 4);
      };
      const [over10Ms, over50Ms] = [over(ms10), over(ms50)];
      return { labels, count, mean: count > 0 ? round(((t.sum - b.sum) / count) * scale, 2) : Number.NaN, ...(over10Ms === undefined ? {} : { over10Ms }), ...(over50Ms === undefined ? {} : { over50Ms }) };
    })
    .filter((x) => x.count > 0);
}

/** prom-client's default `eventLoopMonitoringPrecision`, which metrics/createMetricsRegistry keeps. */
const PROM_LAG_RESOLUTION_MS = 10;

/**
 * How late a loop was, from a value of a `monitorEventLoopDelay` histogram of timers every `resolutionMs`:
 * Node records the whole interval between two of them (an idle loop reads about the resolution), ms.
 */
export const lateness = (intervalMs: number, resolutionMs: number): number => round(Math.max(0, intervalMs - resolutionMs), 2);

/**
 * What `edgestream serve` itself measured over a window, from its /metrics:
 * mean time per request by route and status (fastify's view: from the
 * request's parsing to the reply), mean reader call time by operation, and
 * mean partition reads per reader call, and its garbage collections. Beside the client's latency this
 * splits an op's time into the server's own and what lies outside it
 * (sockets, the client, the event loop's queue).
 */
export function serverTimings(before: string, after: string) {
  return {
    httpMs: meansBetween(before, after, 'edgestream_http_request_duration_seconds', 1000),
    readerMs: meansBetween(before, after, 'edgestream_read_duration_seconds', 1000),
    readerQueries: meansBetween(before, after, 'edgestream_read_queries'),
    /** The server's garbage collections by kind (prom-client's default metrics): a pause stalls every request in flight. */
    gcMs: meansBetween(before, after, 'nodejs_gc_duration_seconds', 1000),
    /**
     * How late its event loop was since the scrape before (prom-client resets it at each scrape), ms: work queued behind a
     * busy or paused loop. prom-client's histogram records the whole interval between its 10 ms timers, so that is taken off.
     */
    loopDelayMs: { p99: lateness(gaugeValue(after, 'nodejs_eventloop_lag_p99_seconds', 1000), PROM_LAG_RESOLUTION_MS), max: lateness(gaugeValue(after, 'nodejs_eventloop_lag_max_seconds', 1000), PROM_LAG_RESOLUTION_MS) },
  };
}

export type ServerTimings = ReturnType<typeof serverTimings>;
