import type { PairedRepeat } from './comparePaired.ts';

/** What the demo reads through: an `EdgeReader`, or later a client of `edgestream serve`. */
export interface NeighbourPages {
  in(type: string, vertex: string, options: { limit: number; cursor?: string; order?: 'newest' | 'peer' }): Promise<{ readonly items: readonly unknown[]; readonly cursor?: string | undefined }>;
}

export interface ReadTarget {
  readonly type: string;
  readonly vertex: string;
}

/** One newest-`limit` page; returns its wall time (ms). */
export async function timeNewestPage(reader: NeighbourPages, t: ReadTarget, limit: number): Promise<number> {
  const t0 = performance.now();
  await reader.in(t.type, t.vertex, { limit });
  return performance.now() - t0;
}

/** A full cursor scan in pages of `pageSize`; returns its wall time (ms) and the neighbours read. */
export async function timeFullScan(reader: NeighbourPages, t: ReadTarget, pageSize: number, order?: 'newest' | 'peer'): Promise<{ ms: number; items: number }> {
  const t0 = performance.now();
  let items = 0;
  let cursor: string | undefined;
  do {
    const page = await reader.in(t.type, t.vertex, { limit: pageSize, ...(cursor === undefined ? {} : { cursor }), ...(order === undefined ? {} : { order }) });
    items += page.items.length;
    cursor = page.cursor;
  } while (cursor !== undefined);
  return { ms: performance.now() - t0, items };
}

export interface PairedReadPlan {
  readonly pageLimit: number;
  /** Repeats of the page measurement, each `pagePairs` A/B pairs. */
  readonly pageRepeats: number;
  readonly pagePairs: number;
  readonly scanPageSize: number;
  /** Full scans of each side, alternated A B, B A, A B… */
  readonly scanRepeats: number;
  readonly onProgress?: (text: string) => void;
}

export interface PairedReads {
  readonly pages: readonly PairedRepeat[];
  /** One repeat per scan pair (a single sample each). */
  readonly scans: readonly PairedRepeat[];
  /** Neighbours each side's scans returned (every scan of a side returns the same number, or this throws). */
  readonly scanned: { readonly a: number; readonly b: number };
}

/**
 * Reads A and B in the same window, alternating sample by sample (which side
 * goes first alternates too), so whatever else the machine does weighs on
 * both alike: the comparison is paired. A few unmeasured pages warm up both.
 */
export async function measurePaired(a: NeighbourPages, b: NeighbourPages, t: ReadTarget, plan: PairedReadPlan): Promise<PairedReads> {
  for (let i = 0; i < 5; i++) {
    await timeNewestPage(a, t, plan.pageLimit);
    await timeNewestPage(b, t, plan.pageLimit);
  }
  const pages: PairedRepeat[] = [];
  for (let r = 0; r < plan.pageRepeats; r++) {
    const as: number[] = [];
    const bs: number[] = [];
    for (let i = 0; i < plan.pagePairs; i++) {
      if (i % 2 === 0) {
        as.push(await timeNewestPage(a, t, plan.pageLimit));
        bs.push(await timeNewestPage(b, t, plan.pageLimit));
      } else {
        bs.push(await timeNewestPage(b, t, plan.pageLimit));
        as.push(await timeNewestPage(a, t, plan.pageLimit));
      }
    }
    pages.push({ a: as, b: bs });
    plan.onProgress?.(`newest-${plan.pageLimit} pages: repeat ${r + 1}/${plan.pageRepeats} done`);
  }
  const scans: PairedRepeat[] = [];
  const counts = { a: new Set<number>(), b: new Set<number>() };
  for (let r = 0; r < plan.scanRepeats; r++) {
    const order = r % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
    const ms = { a: 0, b: 0 };
    for (const side of order) {
      const s = await timeFullScan(side === 'a' ? a : b, t, plan.scanPageSize);
      ms[side] = s.ms;
      counts[side].add(s.items);
    }
    scans.push({ a: [ms.a], b: [ms.b] });
    plan.onProgress?.(`full scans: repeat ${r + 1}/${plan.scanRepeats} done: A ${(ms.a / 1000).toFixed(1)} s, B ${(ms.b / 1000).toFixed(1)} s (${order[0].toUpperCase()} first)`);
  }
  if (counts.a.size > 1 || counts.b.size > 1) throw new Error(`full scans returned different neighbour counts across repeats: A ${[...counts.a].join('/')}, B ${[...counts.b].join('/')}`);
  return { pages, scans, scanned: { a: [...counts.a][0] ?? 0, b: [...counts.b][0] ?? 0 } };
}
