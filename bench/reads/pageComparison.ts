import type { EdgeReader } from '../../reads/index.ts';
import type { createStatusLine } from '../ingest/progressLine.ts';
import { latencySummary, type LatencySummary } from '../ingest/stats.ts';
import type { RawReads } from './rawReads.ts';

export interface PageRepeat {
  readonly edgestream: LatencySummary;
  readonly raw: LatencySummary;
  /** The raw driver validating its slice as edgestream's index design must (rawReads.newestInValidated). */
  readonly rawValidated: LatencySummary;
}

const WARMUP = 5;

/**
 * One repeat of the newest-page comparison: `samples` calls of
 * `reader.in(type, vertex, { limit })`, as many raw slices of `T_in_recent`
 * and as many raw validated pages (slice + one `key IN` of the links), one call
 * at a time, the order rotating per sample. All three must return the same peers.
 */
export async function compareNewestPage(o: {
  reader: EdgeReader;
  raw: RawReads;
  edgeType: string;
  vertex: string;
  limit: number;
  samples: number;
  status: ReturnType<typeof createStatusLine>;
  label: string;
}): Promise<PageRepeat> {
  const peersOf = (page: readonly { peer: string }[]) => page.map((n) => n.peer).join(',');
  const sides = [
    async () => peersOf((await o.reader.in(o.edgeType, o.vertex, { limit: o.limit })).items),
    async () => peersOf(await o.raw.newestIn(o.vertex, o.limit)),
    async () => peersOf(await o.raw.newestInValidated(o.vertex, o.limit)),
  ] as const;
  for (let i = 0; i < WARMUP; i++) for (const side of sides) await side();
  const [lib, raw, validated] = [await sides[0](), await sides[1](), await sides[2]()];
  if (lib !== raw || validated !== raw) throw new Error(`${o.label}: edgestream, the raw slice and the raw validated page returned different newest pages`);
  const ms: [number[], number[], number[]] = [[], [], []];
  for (let i = 0; i < o.samples; i++) {
    // Each side goes first, second and third in turn.
    for (let k = 0; k < 3; k++) {
      const side = (i + k) % 3;
      const t0 = performance.now();
      await sides[side as 0 | 1 | 2]();
      ms[side]!.push(performance.now() - t0);
    }
    o.status.update(`${o.label}: ${i + 1}/${o.samples} sample triples`);
  }
  o.status.done();
  return { edgestream: latencySummary(ms[0]), raw: latencySummary(ms[1]), rawValidated: latencySummary(ms[2]) };
}

/**
 * Pages the reader has never read: the newest `limit` in-neighbours of each of
 * `vertices`, once per side (edgestream, raw slice, raw validated page; the
 * order rotating per vertex), so neither validating side can guess (nothing was
 * read there before) and each page costs its slice and its validation one
 * after the other.
 */
export async function compareColdNewestPages(o: {
  reader: EdgeReader;
  raw: RawReads;
  edgeType: string;
  vertices: readonly string[];
  limit: number;
  status: ReturnType<typeof createStatusLine>;
  label: string;
}): Promise<PageRepeat> {
  const ms: [number[], number[], number[]] = [[], [], []];
  for (const [i, vertex] of o.vertices.entries()) {
    const sides = [
      async () => (await o.reader.in(o.edgeType, vertex, { limit: o.limit })).items,
      () => o.raw.newestIn(vertex, o.limit),
      () => o.raw.newestInValidated(vertex, o.limit),
    ] as const;
    const pages: string[] = [];
    for (let k = 0; k < 3; k++) {
      const side = (i + k) % 3;
      const t0 = performance.now();
      const page = await sides[side as 0 | 1 | 2]();
      ms[side]!.push(performance.now() - t0);
      pages.push(page.map((n) => n.peer).join(','));
    }
    if (new Set(pages).size !== 1) throw new Error(`${o.label}: edgestream, the raw slice and the raw validated page returned different newest pages of ${vertex}`);
    o.status.update(`${o.label}: ${i + 1}/${o.vertices.length} vertices`);
  }
  o.status.done();
  return { edgestream: latencySummary(ms[0]), raw: latencySummary(ms[1]), rawValidated: latencySummary(ms[2]) };
}
