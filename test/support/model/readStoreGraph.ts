import {
  decodeDegreeCount,
  decodeDegreesKey,
  decodeLinkValue,
  decodeNodeTombstoneValue,
  decodeRecentKey,
  decodeVertexKey,
  DEGREES_NAMESPACE,
  edgePropsId,
  edgePropsNamespace,
  encodeVertexKey,
  LinkState,
  linkNamespace,
  NODE_TOMBSTONE_KEY,
  NODE_TOMBSTONES_NAMESPACE,
  recentNamespace,
  type LinkDirection,
} from '../../../sinks/namespaces/index.ts';
import type { Cell, NamespaceStore, TwoLevelMapStore } from '../../../sinks/store/TwoLevelMapStore.ts';
import { degreeLines, linkLine, newestFirstLine, propertyCellLine, tombstoneLine } from './graphLines.ts';
import { staleExactEntry } from './staleExactEntry.ts';

/** Every cell of a partition, read in small pages so paging is exercised too. */
export async function readPartition(ns: NamespaceStore, id: string, pageSize = 3): Promise<Cell[]> {
  const cells: Cell[] = [];
  let pageState: string | undefined;
  do {
    const page = await ns.slice(id, { limit: pageSize, ...(pageState === undefined ? {} : { pageState }) });
    cells.push(...page.cells);
    pageState = page.pageState;
  } while (pageState !== undefined);
  return cells;
}

/**
 * The store's graph as graphLines, read the way a reader would: links from
 * both link namespaces, newest-first lists from the `*_recent` index validated
 * against the forward/reverse link (an entry counts only if its link is ACTIVE
 * with the same time), property bags of every vertex pair, degrees and node
 * tombstones. `vertices` bounds the partitions looked at (the port cannot list them).
 */
export async function readStoreGraph(store: TwoLevelMapStore, edgeTypes: readonly string[], vertices: readonly string[]): Promise<string[]> {
  const lines: string[] = [];
  for (const edgeType of edgeTypes) {
    for (const vertex of vertices) {
      for (const direction of ['out', 'in'] as const) {
        for (const cell of await readPartition(store.namespace(linkNamespace(edgeType, direction)), vertex)) {
          const peer = decodeVertexKey(cell.key);
          const [src, dst] = direction === 'out' ? [vertex, peer] : [peer, vertex];
          lines.push(linkLine(direction, edgeType, src, dst, decodeLinkValue(cell.value), cell.writeTime));
        }
        const list = await validatedNewestFirst(store, edgeType, direction, vertex);
        if (list.length > 0) lines.push(newestFirstLine(edgeType, direction, vertex, list));
      }
      for (const other of vertices) {
        const bag = edgePropsId(vertex, other);
        if (bag !== `${vertex}\u0000${other}`) continue;
        for (const cell of await readPartition(store.namespace(edgePropsNamespace(edgeType)), bag)) {
          lines.push(propertyCellLine(edgeType, bag, cell));
        }
      }
    }
  }
  for (const vertex of vertices) {
    for (const cell of await readPartition(store.namespace(DEGREES_NAMESPACE), vertex)) {
      const { edgeType, direction } = decodeDegreesKey(cell.key);
      lines.push(...degreeLines(edgeType, direction, vertex, decodeDegreeCount(cell.value)));
    }
    const tombstone = await store.namespace(NODE_TOMBSTONES_NAMESPACE).get(vertex, NODE_TOMBSTONE_KEY);
    if (tombstone !== undefined) lines.push(tombstoneLine(vertex, tombstone.writeTime, decodeNodeTombstoneValue(tombstone.value).mutationId));
  }
  return lines.sort();
}

async function validatedNewestFirst(
  store: TwoLevelMapStore,
  edgeType: string,
  direction: LinkDirection,
  vertex: string,
): Promise<{ peer: string; time: bigint; mutationId: string; data?: Uint8Array }[]> {
  const links = store.namespace(linkNamespace(edgeType, direction));
  const list: { peer: string; time: bigint; mutationId: string; data?: Uint8Array }[] = [];
  for (const entry of await readPartition(store.namespace(recentNamespace(edgeType, direction)), vertex)) {
    const { time, peer } = decodeRecentKey(entry.key);
    const link = await links.get(vertex, encodeVertexKey(peer));
    const value = link && decodeLinkValue(link.value);
    // The id and data come from the link, as the reader takes them: at one write time the entry's own
    // value (an ADD's id) can lose a tie the link value won on its data.
    const stale = staleExactEntry(entry.value, value, time);
    if (stale !== undefined) list.push({ peer: `${peer} (${stale})`, time, mutationId: '' });
    else if (value?.state === LinkState.ACTIVE && value.time === time) list.push({ peer, time, mutationId: value.mutationId, ...(value.data ? { data: value.data } : {}) });
  }
  return list;
}
