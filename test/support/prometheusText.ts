/** One sample of a Prometheus text exposition: `name{labels} value`. */
export interface PromSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The samples of a scrape, queried by metric name and a subset of labels. */
export interface PromScrape {
  readonly samples: readonly PromSample[];
  /** Samples of `name` whose labels include every pair of `labels`. */
  series(name: string, labels?: Record<string, string>): PromSample[];
  /** Sum of `series(name, labels)`; 0 when there is none. */
  sum(name: string, labels?: Record<string, string>): number;
  /** `# TYPE` of a metric family, e.g. counter. */
  type(name: string): string | undefined;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses the Prometheus text format (version 0.0.4); a line it cannot read throws, naming it. */
export function parsePrometheusText(text: string): PromScrape {
  const samples: PromSample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('# TYPE ')) {
      const [name, type] = line.slice(7).split(' ');
      if (name !== undefined && type !== undefined) types.set(name, type);
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  const series = (name: string, labels: Record<string, string> = {}) =>
    samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return { samples, series, sum: (name, labels) => series(name, labels).reduce((n, s) => n + s.value, 0), type: (name) => types.get(name) };
}

/** GETs `url` and parses it; rejects on a non-200 answer with its status. */
export async function scrapePrometheus(url: string): Promise<PromScrape> {
  const res = await fetch(url);
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status}: ${body.slice(0, 200)}`);
  return parsePrometheusText(body);
}
