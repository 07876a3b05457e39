import type cassandra from 'cassandra-driver';
import {
  decodeDegreeCount,
  decodeDegreesKey,
  decodeLinkValue,
  decodeNodeTombstoneValue,
  decodeRecentKey,
  decodeVertexKey,
  DEGREES_NAMESPACE,
  edgePropsNamespace,
  LinkState,
  linkNamespace,
  NODE_TOMBSTONE_KEY,
  NODE_TOMBSTONES_NAMESPACE,
  recentNamespace,
  type LinkValue,
} from '../../../sinks/namespaces/index.ts';
import { mapBoundedOrThrow } from '../../../sinks/store/mapBounded.ts';
import type { TwoLevelMapStore } from '../../../sinks/store/TwoLevelMapStore.ts';
import { degreeLines, linkLine, newestFirstLine, propertyCellLine, tombstoneLine } from './graphLines.ts';
import { staleExactEntry } from './staleExactEntry.ts';
import { readPartition } from './readStoreGraph.ts';

/**
 * The whole store as graphLines, like readStoreGraph but without a vertex
 * list: the partitions of every namespace are enumerated with CQL
 * `SELECT DISTINCT id` (a namespace is one table of the same name, see
 * sinks/cassandra), so anything written under an unexpected id shows up too.
 * Cells are read through the store port (its codecs, paging and LWW view) with
 * bounded concurrency. Newest-first lists come from the `*_recent` index,
 * each entry validated against the link read from the same scan (live only
 * if ACTIVE with the same time), exactly as readStoreGraph validates them.
 */
export async function readFullStoreGraph(
  store: TwoLevelMapStore,
  cql: cassandra.Client,
  keyspace: string,
  edgeTypes: readonly string[],
  { concurrency = 32, pageSize = 1_000 } = {},
): Promise<string[]> {
  const lines: string[] = [];
  const ids = (namespace: string) => partitionIds(cql, keyspace, namespace);
  const each = <T>(items: readonly T[], fn: (item: T) => Promise<void>) => mapBoundedOrThrow(items, concurrency, fn);

  for (const edgeType of edgeTypes) {
    for (const direction of ['out', 'in'] as const) {
      const linkNs = store.namespace(linkNamespace(edgeType, direction));
      const links = new Map<string, Map<string, LinkValue>>();
      await each(await ids(linkNs.namespace), async (vertex) => {
        const byPeer = new Map<string, LinkValue>();
        for (const cell of await readPartition(linkNs, vertex, pageSize)) {
          const peer = decodeVertexKey(cell.key);
          const value = decodeLinkValue(cell.value);
          byPeer.set(peer, value);
          const [src, dst] = direction === 'out' ? [vertex, peer] : [peer, vertex];
          lines.push(linkLine(direction, edgeType, src, dst, value, cell.writeTime));
        }
        links.set(vertex, byPeer);
      });
      const recentNs = store.namespace(recentNamespace(edgeType, direction));
      await each(await ids(recentNs.namespace), async (vertex) => {
        const list: { peer: string; time: bigint; mutationId: string; data?: Uint8Array }[] = [];
        for (const entry of await readPartition(recentNs, vertex, pageSize)) {
          const { time, peer } = decodeRecentKey(entry.key);
          const link = links.get(vertex)?.get(peer);
          // Id and data from the link, as the reader takes them (see readStoreGraph).
          const stale = staleExactEntry(entry.value, link, time);
          if (stale !== undefined) list.push({ peer: `${peer} (${stale})`, time, mutationId: '' });
          else if (link?.state === LinkState.ACTIVE && link.time === time) list.push({ peer, time, mutationId: link.mutationId, ...(link.data ? { data: link.data } : {}) });
        }
        if (list.length > 0) lines.push(newestFirstLine(edgeType, direction, vertex, list));
      });
    }
    const propsNs = store.namespace(edgePropsNamespace(edgeType));
    await each(await ids(propsNs.namespace), async (bag) => {
      for (const cell of await readPartition(propsNs, bag, pageSize)) {
        lines.push(propertyCellLine(edgeType, bag, cell));
      }
    });
  }
  const degrees = store.namespace(DEGREES_NAMESPACE);
  await each(await ids(DEGREES_NAMESPACE), async (vertex) => {
    for (const cell of await readPartition(degrees, vertex, pageSize)) {
      const { edgeType, direction } = decodeDegreesKey(cell.key);
      lines.push(...degreeLines(edgeType, direction, vertex, decodeDegreeCount(cell.value)));
    }
  });
  const tombstones = store.namespace(NODE_TOMBSTONES_NAMESPACE);
  await each(await ids(NODE_TOMBSTONES_NAMESPACE), async (vertex) => {
    const cell = await tombstones.get(vertex, NODE_TOMBSTONE_KEY);
    if (cell !== undefined) lines.push(tombstoneLine(vertex, cell.writeTime, decodeNodeTombstoneValue(cell.value).mutationId));
  });
  return lines.sort();
}

/** Every partition id of a namespace's table (`SELECT DISTINCT id`, paged). */
export async function partitionIds(cql: cassandra.Client, keyspace: string, namespace: string): Promise<string[]> {
  const ids: string[] = [];
  let pageState: string | undefined;
  do {
    const rs = await cql.execute(`SELECT DISTINCT id FROM "${keyspace}"."${namespace}"`, [], { prepare: true, fetchSize: 5_000, ...(pageState ? { pageState } : {}) });
    for (const row of rs.rows) ids.push(row['id'] as string);
    pageState = rs.pageState ?? undefined;
  } while (pageState !== undefined);
  return ids;
}

/** What `actual` lacks and what it has too much of, compared with `expected` (both sorted or not). */
export function lineDiff(expected: readonly string[], actual: readonly string[]): { missing: string[]; extra: string[] } {
  const count = new Map<string, number>();
  for (const l of expected) count.set(l, (count.get(l) ?? 0) + 1);
  const extra: string[] = [];
  for (const l of actual) {
    const n = count.get(l) ?? 0;
    if (n > 0) count.set(l, n - 1);
    else extra.push(l);
  }
  const missing = [...count].flatMap(([l, n]) => Array.from({ length: n }, () => l));
  return { missing: missing.sort(), extra: extra.sort() };
}
