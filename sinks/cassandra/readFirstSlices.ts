import { mapBoundedOrThrow } from '../store/mapBounded.ts';
import { cutPage, resolveSlice } from '../store/resolveSlice.ts';
import type { KeyValue, SlicePage } from '../store/TwoLevelMapStore.ts';
import type { NamespaceRuntime } from './namespaceRuntime.ts';
import { resolveRows, toStoredRows, type CellShape, type StoredRow } from './readCells.ts';

/**
 * Rows one request may return. A request is answered in one response: its
 * `LIMIT` (ids × (limit + 1)) never exceeds its fetch size, so Cassandra
 * reads its partitions in parallel instead of one after another (its
 * multi-partition pager pages partition by partition: 64 partitions of 10
 * cells took 8 ms paged against 3 ms unpaged on the 2-core stack).
 */
const MAX_ROWS_PER_REQUEST = 10_000;

/**
 * `NamespaceStore.sliceMany` on Cassandra: `id IN ? PER PARTITION LIMIT ?`
 * lists of distinct ids, each request at most `readIdsPerRequest` ids (the
 * coordinator reads every partition of a list and answers when the slowest
 * is in) and at most MAX_ROWS_PER_REQUEST rows, `mutationConcurrency`
 * requests in flight. Each partition is read with one look-ahead row, which
 * only proves there is more (as in `slice`). A request is routed to a
 * replica of its first id: ids grouped by replica set (`replicaGroups`) are
 * then all read on the coordinator.
 */
export async function readFirstSlices<C extends KeyValue>(ns: NamespaceRuntime, shape: CellShape<C>, ids: readonly string[], limit: number): Promise<SlicePage<C>[]> {
  const resolved = resolveSlice({ limit });
  const distinct = [...new Set(ids)];
  const perRequest = Math.max(1, Math.min(ns.tuning.readIdsPerRequest, Math.floor(MAX_ROWS_PER_REQUEST / (limit + 1))));
  const requests: string[][] = [];
  for (let i = 0; i < distinct.length; i += perRequest) requests.push(distinct.slice(i, i + perRequest));
  const what = `slice ${ns.settings.name}/<${distinct.length} ids>`;
  const pages = new Map<string, SlicePage<C>>();
  await mapBoundedOrThrow(requests, ns.tuning.mutationConcurrency, async (request) => {
    const rowLimit = request.length * (limit + 1);
    const rows = await ns.session.readRows(
      { query: shape.statements(ns).sliceMany, params: [request, limit + 1, rowLimit] },
      { maxRows: rowLimit, fetchSize: rowLimit, routingId: request[0] as string },
      what,
    );
    const stored = toStoredRows(rows, shape.writeTimes);
    const byId = new Map<string, StoredRow[]>();
    rows.forEach((row, i) => {
      const id = row.get('id') as string;
      const of = byId.get(id);
      if (of === undefined) byId.set(id, [stored[i] as StoredRow]);
      else of.push(stored[i] as StoredRow);
    });
    for (const id of request) {
      const page = cutPage(byId.get(id) ?? [], resolved);
      const cells = await resolveRows(ns, shape, id, page.rows);
      pages.set(id, page.pageState === undefined ? { cells } : { cells, pageState: page.pageState });
    }
  });
  return ids.map((id) => pages.get(id) as SlicePage<C>);
}
