import {
  decodeLinkValue,
  decodeRecentKey,
  decodeVertexKey,
  deriveRecentPage,
  exactRecentLink,
  isActiveAtInvertedTime,
  LinkState,
  linkNamespace,
  recentKeyPeerBytes,
  recentNamespace,
  type LinkDirection,
  type LinkValue,
} from '../sinks/namespaces/index.ts';
import { bytesKey, isStoreError, type KeyValue } from '../sinks/store/index.ts';
import type { Neighbour, NeighbourOrder } from './EdgeReader.ts';
import { pageBelow } from './PartitionReader.ts';
import { getKeys, sampleOf, type ReadContext } from './ReadContext.ts';
import { guessPosition } from './validationGuesses.ts';

/** One read of a neighbour order: the cells scanned and, for each, the live neighbour it is (or undefined). */
export interface SourcePage {
  readonly cells: readonly KeyValue[];
  readonly live: readonly (Neighbour | undefined)[];
  /** No cell after the last one existed at read time. */
  readonly exhausted: boolean;
}

/** Where a neighbour order is scanned and how a scanned cell becomes a live neighbour. */
export interface NeighbourSource {
  readonly namespace: string;
  /**
   * Up to `limit` cells after `after`, in at most two queries (a slice and one
   * multi-key read), for `wanted` (≤ `limit`) live neighbours: a source that
   * knows the cells there were all live last time may ask for fewer.
   */
  read(ctx: ReadContext, vertex: string, after: Uint8Array | undefined, limit: number, wanted: number): Promise<SourcePage>;
}

/** Link pages read per query when a newest page is derived from the link partition. */
const DERIVE_PAGE_CELLS = 5_000;

export function neighbourSource(order: NeighbourOrder, type: string, direction: LinkDirection): NeighbourSource {
  return order === 'newest' ? recentIndexSource(type, direction) : linkSource(type, direction);
}

const pageOf = (ctx: ReadContext, namespace: string, vertex: string, after: Uint8Array | undefined, limit: number, before?: Uint8Array) =>
  ctx.partitions.page(namespace, vertex, { limit, ...(after === undefined ? {} : { after }), ...(before === undefined ? {} : { before }) });

/** The neighbour an ACTIVE link stands for: every field of the link value but its state (a new LinkValue field must be added here). */
function neighbourOf(peer: string, link: LinkValue): Neighbour {
  // Spelled out rather than `{ ...rest, peer }`: object rest/spread costs more than building the object on this hot path.
  return link.data === undefined ? { time: link.time, mutationId: link.mutationId, peer } : { time: link.time, mutationId: link.mutationId, data: link.data, peer };
}

/** `peer` order: the link namespace itself; a cell is live when ACTIVE. One query. */
function linkSource(type: string, direction: LinkDirection): NeighbourSource {
  const namespace = linkNamespace(type, direction);
  return {
    namespace,
    async read(ctx, vertex, after, limit) {
      const page = await pageOf(ctx, namespace, vertex, after, limit);
      const live = page.cells.map((cell) => {
        const link = decodeLinkValue(cell.value);
        return link.state === LinkState.ACTIVE ? neighbourOf(decodeVertexKey(cell.key), link) : undefined;
      });
      return { cells: page.cells, live, exhausted: page.exhausted };
    },
  };
}

/**
 * `newest` order: the `*_recent` index. An exact entry (recentValue: written
 * by the sole writer of its source after reading the link) carries its
 * neighbour and is taken as it is: a page of exact entries is one slice. Any
 * other entry (written by a repair, or before the index was exact) counts only
 * if its link is ACTIVE with exactly the entry's time: the links of a page's
 * unverified entries are read together, one `getKeys` of the link partition,
 * keyed by the peer bytes of the entries themselves (an entry's key ends with
 * the link's key) and compared byte by byte. When the last two reads of this
 * page position checked the same peers, their links are read while the slice
 * is in flight (ValidationGuesses): one round trip; peers the guess lacks
 * (the page changed since) are read after it.
 *
 * When the index slice fails with `read_failure` (Cassandra gives up on a read
 * that crosses `tombstone_failure_threshold` row tombstones, e.g. after a bot
 * purge unfollowed the newest 150 000), the page is derived from the link
 * partition instead, which never holds row tombstones (docs/architecture.md §6).
 *
 * `before` bounds the slice from above (a time range's oldest end: see recentKeyRange).
 */
export function recentIndexSource(type: string, direction: LinkDirection, before?: Uint8Array): NeighbourSource {
  const links = linkNamespace(type, direction);
  const namespace = recentNamespace(type, direction);
  return {
    namespace,
    async read(ctx, vertex, after, limit, wanted) {
      const guesses = ctx.validationGuesses;
      const position = guessPosition(namespace, vertex, after, before, wanted);
      const last = guesses.get(position);
      // The guessed peers' links are read while the slice is in flight: one round trip when the page has not changed.
      const early = last?.stable === true ? linkCellsOf(ctx, vertex, new Map(last.peers.map((peer) => [peer, Buffer.from(peer, 'latin1')]))) : undefined;
      early?.catch(() => undefined); // awaited below unless the slice fails first
      // A page whose last two reads found the same peers, all live, needs no slack for stale entries.
      const cells = last?.stable === true && last.allLive ? Math.min(limit, wanted + 1) : limit;
      let page;
      try {
        page = await pageOf(ctx, namespace, vertex, after, cells, before);
      } catch (e) {
        if (isStoreError(e) && e.code === 'read_failure') return derivedPage(ctx, vertex, after, limit);
        throw e;
      }
      // Exact entries carry their neighbour; only the others are checked against their links.
      const exact = page.cells.map((cell) => exactRecentLink(cell.value));
      const peerKeys = page.cells.map((cell, i) => (exact[i] === undefined ? recentKeyPeerBytes(cell.key) : undefined));
      // Peers by their key bytes (Latin-1): an index may hold a peer twice (a stale entry), its link is read once.
      const peers = peerKeys.map((key) => (key === undefined ? undefined : bytesKey(key)));
      const byPeer = early === undefined ? new Map<string, KeyValue | undefined>() : await early;
      // The distinct peers the guess did not cover, each read by its entry's own key bytes.
      const missing = new Map<string, Uint8Array>();
      peers.forEach((peer, i) => {
        if (peer !== undefined && !byPeer.has(peer)) missing.set(peer, peerKeys[i] as Uint8Array);
      });
      if (early !== undefined || missing.size > 0) ctx.observer.pageValidationGuess(early !== undefined && missing.size === 0);
      for (const [peer, cell] of await linkCellsOf(ctx, vertex, missing)) byPeer.set(peer, cell);
      const live = page.cells.map((cell, i) => {
        const trusted = exact[i];
        if (trusted !== undefined) return neighbourOf(decodeVertexKey(recentKeyPeerBytes(cell.key)), trusted);
        const link = byPeer.get(peers[i] as string);
        return link !== undefined && isActiveAtInvertedTime(link.value, cell.key) ? neighbourOf(decodeVertexKey(peerKeys[i] as Uint8Array), decodeLinkValue(link.value)) : undefined;
      });
      const checked = [...new Set(peers.filter((p): p is string => p !== undefined))];
      if (checked.length <= guesses.maxPeers) guesses.remember(position, checked, !live.includes(undefined), last);
      return { cells: page.cells, live, exhausted: page.exhausted };
    },
  };

  /** The link cell of each peer (Latin-1 name → its link key) by peer: one `getKeys` of the link partition (none for no peers). */
  async function linkCellsOf(ctx: ReadContext, vertex: string, keysByPeer: ReadonlyMap<string, Uint8Array>): Promise<Map<string, KeyValue | undefined>> {
    if (keysByPeer.size === 0) return new Map();
    const cells = await getKeys(ctx, links, vertex, [...keysByPeer.values()]);
    // Validation reads return nothing themselves: the items count against the index page.
    ctx.counters.record(links, vertex, sampleOf(cells, 0));
    return new Map([...keysByPeer.keys()].map((peer, i) => [peer, cells[i]] as const));
  }

  /**
   * The page computed from every link of `vertex` (live by construction). Its
   * cost is recorded against the index partition, so a tombstone-heavy index
   * reads as wide and the split chain rebuilds it from the links.
   */
  async function derivedPage(ctx: ReadContext, vertex: string, after: Uint8Array | undefined, limit: number): Promise<SourcePage> {
    const derived = await deriveRecentPage((from) => pageOf(ctx, links, vertex, from, DERIVE_PAGE_CELLS), after, limit);
    ctx.counters.record(namespace, vertex, { bytesRead: derived.linkBytesRead, rowsRead: derived.linkCellsRead, rowsReturned: 0 });
    const { cells, exhausted } = pageBelow(derived, before);
    // A derived entry carries the ADD's mutation id only (no link `data`).
    const live = cells.map((cell) => {
      const { peer, time } = decodeRecentKey(cell.key);
      return { peer, time, mutationId: Buffer.from(cell.value).toString('utf8') };
    });
    return { cells, live, exhausted };
  }
}
