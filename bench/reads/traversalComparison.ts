import type { EdgeReader, TraversalHop } from '../../reads/index.ts';
import type { LinkDirection } from '../../sinks/namespaces/index.ts';
import type { createStatusLine } from '../ingest/progressLine.ts';
import { latencySummary, median, round, type LatencySummary } from '../ingest/stats.ts';
import type { RawReads } from './rawReads.ts';

export interface HopFigures {
  /** Mean and median partition reads per traversal at this hop. */
  readonly meanQueries: number;
  readonly p50Queries: number;
  readonly meanRowsRead: number;
  readonly meanVertices: number;
}

export interface TraversalRepeat {
  readonly edgestream: LatencySummary & { readonly hops: readonly HopFigures[]; readonly partial: Readonly<Record<string, number>> };
  readonly raw: LatencySummary & { readonly hops: readonly HopFigures[] };
}

const hopFigures = (perStart: readonly (readonly { queries: number; rowsRead: number; vertices: number }[])[], hops: number): HopFigures[] =>
  Array.from({ length: hops }, (_, h) => {
    const of = (k: 'queries' | 'rowsRead' | 'vertices') => perStart.map((s) => s[h]?.[k] ?? 0);
    const mean = (xs: number[]) => round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length), 1);
    return { meanQueries: mean(of('queries')), p50Queries: median(of('queries')), meanRowsRead: mean(of('rowsRead')), meanVertices: mean(of('vertices')) };
  });

/**
 * One repeat of the traversal comparison: from each start vertex,
 * `reader.traverse(start, hops, { perHopCap, concurrency })` and the raw
 * driver's same breadth-first reads, alternating per start (and which goes
 * first). Latency per traversal; partition reads per hop from the result's
 * per-hop stats and the raw side's own count.
 */
export async function compareTraversal(o: {
  reader: EdgeReader;
  raw: RawReads;
  edgeType: string;
  starts: readonly string[];
  hops: readonly LinkDirection[];
  cap: number;
  concurrency: number;
  status: ReturnType<typeof createStatusLine>;
  label: string;
}): Promise<TraversalRepeat> {
  const hops: TraversalHop[] = o.hops.map((direction) => ({ type: o.edgeType, direction }));
  const pageSize = Math.min(o.cap, 1_000);
  const libMs: number[] = [];
  const rawMs: number[] = [];
  const libHops: { queries: number; rowsRead: number; vertices: number }[][] = [];
  const rawHops: { queries: number; rowsRead: number; vertices: number }[][] = [];
  const partial: Record<string, number> = {};
  const lib = async (start: string) => {
    const t0 = performance.now();
    const t = await o.reader.traverse(start, hops, { perHopCap: o.cap, concurrency: o.concurrency, pageSize });
    libMs.push(performance.now() - t0);
    libHops.push(t.hops.map((h) => ({ queries: h.stats.queries, rowsRead: h.stats.rowsRead, vertices: h.vertices.length })));
    if (t.partial) partial[t.partial.reason] = (partial[t.partial.reason] ?? 0) + 1;
  };
  const raw = async (start: string) => {
    const t0 = performance.now();
    const stats = await o.raw.traverse(start, o.hops, { cap: o.cap, pageSize, concurrency: o.concurrency });
    rawMs.push(performance.now() - t0);
    rawHops.push(stats.map((h) => ({ queries: h.queries, rowsRead: h.rowsRead, vertices: h.found })));
  };
  for (const [i, start] of o.starts.entries()) {
    if (i % 2 === 0) {
      await lib(start);
      await raw(start);
    } else {
      await raw(start);
      await lib(start);
    }
    o.status.update(`${o.label}: ${i + 1}/${o.starts.length} start vertices`);
  }
  o.status.done();
  return {
    edgestream: { ...latencySummary(libMs), hops: hopFigures(libHops, hops.length), partial },
    raw: { ...latencySummary(rawMs), hops: hopFigures(rawHops, hops.length) },
  };
}
