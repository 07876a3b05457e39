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

/** Dead cells double the next page (up to this factor) so a run of superseded entries costs few round trips. */
const MAX_OVERFETCH = 32;

/**
 * Pages `source` for `vertex` from strictly after `after` until `limit` live
 * neighbours are collected or the partition is exhausted. A page asks for the
 * neighbours still wanted (times an over-fetch factor that grows while pages
 * hold dead cells), so an all-live partition is read without waste. When the
 * limit is reached inside a page, `last` is the key of the last neighbour
 * taken and the rest of that page is read again by the next call.
 */
export async function scanNeighbours(ctx: ReadContext, source: NeighbourSource, vertex: string, limit: number, after: Uint8Array | undefined): Promise<NeighbourScan> {
  const items: Neighbour[] = [];
  let last = after;
  let overfetch = 1;
  for (;;) {
    const wanted = limit - items.length;
    const page = await ctx.partitions.page(source.namespace, vertex, { limit: Math.min(ctx.maxPageCells, wanted * overfetch), ...(last === undefined ? {} : { after: last }) });
    const live = await source.live(ctx, vertex, page.cells);
    let consumed = 0;
    let taken = 0;
    while (consumed < page.cells.length && items.length < limit) {
      const item = live[consumed++];
      if (item !== undefined) {
        items.push(item);
        taken++;
      }
    }
    ctx.counters.record(source.namespace, vertex, sampleOf(page.cells, taken));
    if (consumed > 0) last = page.cells[consumed - 1]!.key;
    const exhausted = consumed === page.cells.length && page.exhausted;
    if (exhausted || items.length === limit) return { items, last, exhausted };
    if (page.cells.length === 0) throw new Error(`PartitionReader returned an empty page of ${source.namespace}[${vertex}] that is not exhausted`);
    if (taken < page.cells.length) overfetch = Math.min(MAX_OVERFETCH, overfetch * 2);
  }
}
