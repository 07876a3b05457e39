import type { EdgeReader, TraversalHop } from '../../reads/index.ts';
import { BATCH_IDS, BATCH_PAGE_CELLS } from '../../reads/traverseHops.ts';
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
  /** One query per partition page, as edgestream read before it batched. */
  readonly raw: LatencySummary & { readonly hops: readonly HopFigures[] };
  /** edgestream's batches (`id IN ? PER PARTITION LIMIT ?`), then partitions with a full first page on their own. */
  readonly rawBatched: LatencySummary & { readonly hops: readonly HopFigures[] };
}

type HopCounts = { queries: number; rowsRead: number; vertices: number }[];

const hopFigures = (perStart: readonly HopCounts[], hops: number): HopFigures[] =>
  Array.from({ length: hops }, (_, h) => {
    const of = (k: 'queries' | 'rowsRead' | 'vertices') => perStart.map((s) => s[h]?.[k] ?? 0);
    const mean = (xs: number[]) => round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length), 1);
    return { meanQueries: mean(of('queries')), p50Queries: median(of('queries')), meanRowsRead: mean(of('rowsRead')), meanVertices: mean(of('vertices')) };
  });

/**
 * One repeat of the traversal comparison: from each start vertex,
 * `reader.traverse(start, hops, { perHopCap, concurrency })` and the raw
 * driver's same breadth-first reads, once one partition per query and once
 * in edgestream's batches, the order of the three rotating per start.
 * Latency per traversal; partition reads per hop from the result's per-hop
 * stats and the raw sides' own counts.
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
  const partial: Record<string, number> = {};
  const sides = {
    edgestream: { ms: [] as number[], hops: [] as HopCounts[] },
    raw: { ms: [] as number[], hops: [] as HopCounts[] },
    rawBatched: { ms: [] as number[], hops: [] as HopCounts[] },
  };
  const timed = async (side: keyof typeof sides, run: () => Promise<HopCounts>) => {
    const t0 = performance.now();
    const counts = await run();
    sides[side].ms.push(performance.now() - t0);
    sides[side].hops.push(counts);
  };
  const lib = (start: string) =>
    timed('edgestream', async () => {
      const t = await o.reader.traverse(start, hops, { perHopCap: o.cap, concurrency: o.concurrency, pageSize });
      if (t.partial) partial[t.partial.reason] = (partial[t.partial.reason] ?? 0) + 1;
      return t.hops.map((h) => ({ queries: h.stats.queries, rowsRead: h.stats.rowsRead, vertices: h.vertices.length }));
    });
  const raw = (start: string, batch?: { ids: number; firstPageCells: number }) =>
    timed(batch === undefined ? 'raw' : 'rawBatched', async () => {
      const stats = await o.raw.traverse(start, o.hops, { cap: o.cap, pageSize, concurrency: o.concurrency, ...(batch === undefined ? {} : { batch }) });
      return stats.map((h) => ({ queries: h.queries, rowsRead: h.rowsRead, vertices: h.found }));
    });
  for (const [i, start] of o.starts.entries()) {
    const runs = [() => lib(start), () => raw(start), () => raw(start, { ids: BATCH_IDS, firstPageCells: BATCH_PAGE_CELLS })];
    for (const k of runs.keys()) await (runs[(i + k) % runs.length] as () => Promise<void>)();
    o.status.update(`${o.label}: ${i + 1}/${o.starts.length} start vertices`);
  }
  o.status.done();
  const summary = (side: keyof typeof sides) => ({ ...latencySummary(sides[side].ms), hops: hopFigures(sides[side].hops, hops.length) });
  return { edgestream: { ...summary('edgestream'), partial }, raw: summary('raw'), rawBatched: summary('rawBatched') };
}
