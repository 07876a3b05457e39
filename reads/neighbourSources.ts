import {
  decodeLinkValue,
  decodeRecentKey,
  decodeVertexKey,
  encodeVertexKey,
  LinkState,
  linkNamespace,
  recentNamespace,
  type LinkDirection,
  type LinkValue,
} from '../sinks/namespaces/index.ts';
import type { Cell } from '../sinks/store/index.ts';
import type { Neighbour, NeighbourOrder } from './EdgeReader.ts';
import { getMany, sampleOf, type ReadContext } from './ReadContext.ts';

/**
 * Where a neighbour order is scanned and how a scanned cell becomes a live
 * neighbour (or undefined when it is not one).
 */
export interface NeighbourSource {
  readonly namespace: string;
  /** One result per cell, in the cells' order. */
  live(ctx: ReadContext, vertex: string, cells: readonly Cell[]): Promise<(Neighbour | undefined)[]>;
}

export function neighbourSource(order: NeighbourOrder, type: string, direction: LinkDirection): NeighbourSource {
  return order === 'newest' ? recentIndexSource(type, direction) : linkSource(type, direction);
}

/** `peer` order: the link namespace itself; a cell is live when ACTIVE. */
function linkSource(type: string, direction: LinkDirection): NeighbourSource {
  return {
    namespace: linkNamespace(type, direction),
    live: async (_ctx, _vertex, cells) =>
      cells.map((cell) => {
        const link = decodeLinkValue(cell.value);
        return link.state === LinkState.ACTIVE ? { peer: decodeVertexKey(cell.key), time: link.time, mutationId: link.mutationId } : undefined;
      }),
  };
}

/**
 * `newest` order: the `*_recent` index, an index and not the truth. The write
 * path leaves superseded entries behind (a re-add writes a new entry and never
 * deletes the old one; a remove deletes only the entry it knows of), so an
 * entry counts only if its link is ACTIVE with exactly the entry's time. The
 * links of a page are point-read together, one read per distinct peer.
 */
function recentIndexSource(type: string, direction: LinkDirection): NeighbourSource {
  const links = linkNamespace(type, direction);
  return {
    namespace: recentNamespace(type, direction),
    async live(ctx, vertex, cells) {
      const entries = cells.map((cell) => decodeRecentKey(cell.key));
      const peers = [...new Set(entries.map((e) => e.peer))];
      const linkCells = await getMany(ctx, links, vertex, peers.map(encodeVertexKey));
      // Validation reads return nothing themselves: the items count against the index page.
      ctx.counters.record(links, vertex, sampleOf(linkCells, 0));
      const byPeer = new Map<string, LinkValue>();
      peers.forEach((peer, i) => {
        const cell = linkCells[i];
        if (cell !== undefined) byPeer.set(peer, decodeLinkValue(cell.value));
      });
      return entries.map(({ peer, time }) => {
        const link = byPeer.get(peer);
        return link?.state === LinkState.ACTIVE && link.time === time ? { peer, time, mutationId: link.mutationId } : undefined;
      });
    },
  };
}
