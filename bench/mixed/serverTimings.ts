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

/** The value of one label in a label set's text (`route="/v1/x",status="200"`). */
export const labelValue = (labels: string, name: string): string | undefined => new RegExp(`(?:^|,)${name}="([^"]*)"`).exec(labels)?.[1];

export interface MeanOver {
  readonly labels: string;
  readonly count: number;
  readonly mean: number;
}

/** Per label set, what was observed between two scrapes: how many, and their mean (× `scale`). */
export function meansBetween(before: string, after: string, name: string, scale = 1): MeanOver[] {
  const a = histogramTotals(before, name);
  return [...histogramTotals(after, name)]
    .map(([labels, t]) => {
      const b = a.get(labels) ?? { sum: 0, count: 0 };
      const count = t.count - b.count;
      return { labels, count, mean: count > 0 ? round(((t.sum - b.sum) / count) * scale, 2) : Number.NaN };
    })
    .filter((x) => x.count > 0);
}

/**
 * What `edgestream serve` itself measured over a window, from its /metrics:
 * mean time per request by route and status (fastify's view: from the
 * request's parsing to the reply), mean reader call time by operation, and
 * mean partition reads per reader call. Beside the client's latency this
 * splits an op's time into the server's own and what lies outside it
 * (sockets, the client, the event loop's queue).
 */
export function serverTimings(before: string, after: string) {
  return {
    httpMs: meansBetween(before, after, 'edgestream_http_request_duration_seconds', 1000),
    readerMs: meansBetween(before, after, 'edgestream_read_duration_seconds', 1000),
    readerQueries: meansBetween(before, after, 'edgestream_read_queries'),
  };
}

export type ServerTimings = ReturnType<typeof serverTimings>;
