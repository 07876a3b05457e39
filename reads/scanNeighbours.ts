import type { Neighbour } from './EdgeReader.ts';
import type { NeighbourSource } from './neighbourSources.ts';
import { sampleOf, type ReadContext } from './ReadContext.ts';

export interface NeighbourScan {
  readonly items: Neighbour[];
  /** The last key scanned; undefined when nothing was. */
  readonly last: Uint8Array | undefined;
  /** No key after `last` existed when it was read. */
  readonly exhausted: boolean;
}

/** Reads per call at most; a call that runs out of them returns a short page with a cursor. */
export const MAX_SCAN_ROUNDS = 8;

/** Most cells a read asks for beyond those still wanted, for stale entries the page may hold. */
export const MAX_SLACK_CELLS = 32;

/**
 * Cells a read asks for when `wanted` live neighbours are still missing: a
 * quarter more, at most MAX_SLACK_CELLS more. A small page fills in one read
 * despite a few stale entries; a large one (a scan's 1 000) does not read and
 * validate a quarter of cells that the next call reads again.
 */
export const cellsToAskFor = (wanted: number): number => wanted + Math.min(Math.ceil(wanted / 4), MAX_SLACK_CELLS);

/**
 * Pages `source` for `vertex` from strictly after `after` until `limit` live
 * neighbours are collected, the partition is exhausted, or MAX_SCAN_ROUNDS
 * reads were made (each read is at most two queries: a slice and, for the
 * newest order, one multi-key validation). The first read asks for a few more
 * cells than wanted (`cellsToAskFor`), so a page with a few stale entries still
 * fills in one read; after a read that held dead cells the next one asks for
 * the neighbours still wanted at that read's live fraction, plus slack (twice
 * as many cells when none was live), up to `maxPageCells`: a partition with a
 * fifth of its entries stale costs a second, small read per page rather than
 * a quarter more cells on every read, and a run of dead cells costs few round
 * trips. A call reads at most MAX_SCAN_ROUNDS × `maxPageCells` cells. When the limit is
 * reached inside a read, `last` is the key of the last neighbour taken and the
 * rest of that read is read again by the next call.
 */
export async function scanNeighbours(ctx: ReadContext, source: NeighbourSource, vertex: string, limit: number, after: Uint8Array | undefined): Promise<NeighbourScan> {
  const items: Neighbour[] = [];
  let last = after;
  let request = cellsToAskFor(limit);
  for (let round = 1; ; round++) {
    request = Math.min(ctx.maxPageCells, request);
    const page = await source.read(ctx, vertex, last, request, limit - items.length);
    let consumed = 0;
    let taken = 0;
    while (consumed < page.cells.length && items.length < limit) {
      const item = page.live[consumed++];
      if (item !== undefined) {
        items.push(item);
        taken++;
      }
    }
    ctx.counters.record(source.namespace, vertex, sampleOf(page.cells, taken));
    if (consumed > 0) last = page.cells[consumed - 1]!.key;
    const exhausted = consumed === page.cells.length && page.exhausted;
    if (exhausted || items.length === limit || round === MAX_SCAN_ROUNDS) return { items, last, exhausted };
    if (page.cells.length === 0) throw new Error(`PartitionReader returned an empty page of ${source.namespace}[${vertex}] that is not exhausted`);
    const wanted = limit - items.length;
    request = taken === 0 ? request * 2 : cellsToAskFor(Math.ceil((wanted * page.cells.length) / taken));
  }
}
