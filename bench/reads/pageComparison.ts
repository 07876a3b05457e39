import type { EdgeReader } from '../../reads/index.ts';
import type { createStatusLine } from '../ingest/progressLine.ts';
import { latencySummary, type LatencySummary } from '../ingest/stats.ts';
import type { RawReads } from './rawReads.ts';

export interface PageRepeat {
  readonly edgestream: LatencySummary;
  readonly raw: LatencySummary;
}

const WARMUP = 5;

/**
 * One repeat of the newest-page comparison: `samples` calls of
 * `reader.in(type, vertex, { limit })` and as many raw slices of
 * `T_in_recent`, alternating per sample (which side goes first alternates
 * too), one call at a time. The two must return the same peers.
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
  const lib = () => o.reader.in(o.edgeType, o.vertex, { limit: o.limit });
  const raw = () => o.raw.newestIn(o.vertex, o.limit);
  for (let i = 0; i < WARMUP; i++) {
    await lib();
    await raw();
  }
  const [libPage, rawPage] = [await lib(), await raw()];
  const libPeers = libPage.items.map((n) => n.peer).join(',');
  if (libPeers !== rawPage.map((n) => n.peer).join(',')) throw new Error(`${o.label}: edgestream and the raw slice returned different newest pages`);
  const libMs: number[] = [];
  const rawMs: number[] = [];
  const timed = async (fn: () => Promise<unknown>, into: number[]) => {
    const t0 = performance.now();
    await fn();
    into.push(performance.now() - t0);
  };
  for (let i = 0; i < o.samples; i++) {
    if (i % 2 === 0) {
      await timed(lib, libMs);
      await timed(raw, rawMs);
    } else {
      await timed(raw, rawMs);
      await timed(lib, libMs);
    }
    o.status.update(`${o.label}: ${i + 1}/${o.samples} sample pairs`);
  }
  o.status.done();
  return { edgestream: latencySummary(libMs), raw: latencySummary(rawMs) };
}

/**
 * Pages the reader has never read: the newest `limit` in-neighbours of each of
 * `vertices`, once per side, edgestream and raw alternating per vertex (and
 * which goes first), so the reader can guess nothing (reads/validationGuesses)
 * and each page costs its slice and its validation one after the other.
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
  const libMs: number[] = [];
  const rawMs: number[] = [];
  for (const [i, vertex] of o.vertices.entries()) {
    const sides = [
      async () => {
        const t0 = performance.now();
        const page = await o.reader.in(o.edgeType, vertex, { limit: o.limit });
        libMs.push(performance.now() - t0);
        return page.items.map((n) => n.peer).join(',');
      },
      async () => {
        const t0 = performance.now();
        const page = await o.raw.newestIn(vertex, o.limit);
        rawMs.push(performance.now() - t0);
        return page.map((n) => n.peer).join(',');
      },
    ];
    const [first, second] = i % 2 === 0 ? sides : [sides[1]!, sides[0]!];
    const a = await first!();
    const b = await second!();
    if (a !== b) throw new Error(`${o.label}: edgestream and the raw slice returned different newest pages of ${vertex}`);
    o.status.update(`${o.label}: ${i + 1}/${o.vertices.length} vertices`);
  }
  o.status.done();
  return { edgestream: latencySummary(libMs), raw: latencySummary(rawMs) };
}
