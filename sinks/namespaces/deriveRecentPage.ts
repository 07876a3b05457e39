import { compareBytes } from '../store/compareBytes.ts';
import type { Cell, KeyValue } from '../store/TwoLevelMapStore.ts';
import { decodeLinkValue, LinkState } from './linkValue.ts';
import { encodeRecentKey } from './recentKey.ts';
import { decodeVertexKey } from './vertexKey.ts';

/** Link partition cells after `after` (ascending), as a reader pages them. */
export type LinkPager<C extends KeyValue = Cell> = (after: Uint8Array | undefined) => Promise<{ readonly cells: readonly C[]; readonly exhausted: boolean }>;

export interface DerivedRecentPage<C extends KeyValue = Cell> {
  /** The live index entries after `after`, ascending (newest first), at most `limit`. */
  readonly cells: C[];
  /** No live entry exists after the last one returned. */
  readonly exhausted: boolean;
  /** Link cells read to derive the page (the whole link partition), and their key + value bytes. */
  readonly linkCellsRead: number;
  readonly linkBytesRead: number;
}

/**
 * The `*_recent` entry an ACTIVE link stands for, exactly as the fan-out
 * wrote it (key invTime(edge time) ‖ peer, value the ADD's mutation id,
 * written at the link's write time, if the link was read with it); undefined
 * for a HIDDEN or REMOVED link.
 */
export function recentEntryOfLink<C extends KeyValue>(link: C): C | undefined {
  const value = decodeLinkValue(link.value);
  if (value.state !== LinkState.ACTIVE) return undefined;
  return { ...link, key: encodeRecentKey(value.time, decodeVertexKey(link.key)), value: Buffer.from(value.mutationId, 'utf8') };
}

/**
 * A page of a `*_recent` index computed from its link partition instead of
 * read from the index: the index is derived data, and its partition can hold
 * more row tombstones than a read may cross (an unfollow deletes its entry;
 * the link partition holds REMOVED values and never tombstones). Walks the
 * whole link partition, keeping the `limit` smallest entry keys after
 * `after`, so it costs one full read of the links: a fallback, not a path.
 */
export async function deriveRecentPage<C extends KeyValue>(pageLinks: LinkPager<C>, after: Uint8Array | undefined, limit: number): Promise<DerivedRecentPage<C>> {
  let kept: C[] = [];
  let candidates = 0;
  let linkCellsRead = 0;
  let linkBytesRead = 0;
  let from: Uint8Array | undefined;
  const trim = () => {
    kept.sort((a, b) => compareBytes(a.key, b.key));
    kept = kept.slice(0, limit);
  };
  for (;;) {
    const page = await pageLinks(from);
    linkCellsRead += page.cells.length;
    for (const link of page.cells) {
      linkBytesRead += link.key.length + link.value.length;
      const entry = recentEntryOfLink(link);
      if (entry === undefined || (after !== undefined && compareBytes(entry.key, after) <= 0)) continue;
      candidates++;
      kept.push(entry);
      if (kept.length >= 2 * limit) trim();
    }
    const last = page.cells.at(-1);
    if (page.exhausted || last === undefined) break;
    from = last.key;
  }
  trim();
  return { cells: kept, exhausted: candidates <= limit, linkCellsRead, linkBytesRead };
}
