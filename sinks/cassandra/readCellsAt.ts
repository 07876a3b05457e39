import { bytesKey } from '../store/cellKey.ts';
import { mapBoundedOrThrow } from '../store/mapBounded.ts';
import type { Cell, CellAddress } from '../store/TwoLevelMapStore.ts';
import { asBuffer, type NamespaceRuntime } from './namespaceRuntime.ts';
import { CELLS, readCell, resolveRow, toStoredRow, type StoredRow } from './readCells.ts';

/** Per partition asked for: its distinct keys, by `bytesKey`. */
type Asked = Map<string, Map<string, Uint8Array>>;

/** One request: a few partitions and the union of the keys asked of them. */
interface CellRequest {
  readonly ids: string[];
  readonly keys: Map<string, Uint8Array>;
}

/**
 * `NamespaceStore.getCells` on Cassandra: `id IN ? AND key IN ?` requests,
 * `mutationConcurrency` in flight, each routed to a replica of its first id
 * and answered unpaged. Cassandra looks up every (id, key) pair of the
 * product, so partitions share a request only while it stays within
 * `readIdsPerRequest` ids and `readCellsPerRequest` pairs (`packRequests`);
 * rows of pairs nobody asked for are dropped. Chunked values are assembled
 * afterwards, as `get` does.
 */
export async function readCellsAt(ns: NamespaceRuntime, cells: readonly CellAddress[]): Promise<(Cell | undefined)[]> {
  const asked: Asked = new Map();
  const keyOf = cells.map(({ id, key }) => {
    const k = bytesKey(key);
    let keys = asked.get(id);
    if (keys === undefined) asked.set(id, (keys = new Map()));
    if (!keys.has(k)) keys.set(k, key);
    return k;
  });
  /** By `id ␀ bytesKey(key)`: ids never contain U+0000 (as in cellKey), so the pair is unambiguous. */
  const found = new Map<string, Cell>();
  const chunked: { id: string; row: StoredRow }[] = [];
  const what = `get ${ns.settings.name}/<${cells.length} cells in ${asked.size} partitions>`;
  await mapBoundedOrThrow(packRequests(asked, ns.tuning), ns.tuning.mutationConcurrency, async ({ ids, keys }) => {
    const pairs = ids.length * keys.size;
    const params = [ids, [...keys.values()].map(asBuffer)];
    const rows = await ns.session.readRows({ query: ns.statements.getCells, params }, { maxRows: pairs, fetchSize: pairs, routingId: ids[0] as string }, what);
    for (const raw of rows) {
      const id = raw.get('id') as string;
      const row = toStoredRow(raw, true);
      const k = bytesKey(row.key);
      if (asked.get(id)?.has(k) !== true) continue;
      if (row.metadata.length === 0) found.set(`${id}\u0000${k}`, CELLS.cell(row, row.value));
      else chunked.push({ id, row });
    }
  });
  await mapBoundedOrThrow(chunked, ns.tuning.chunkConcurrency, async ({ id, row }) => {
    const cell = (await resolveRow(ns, CELLS, id, row)) ?? (await readCell(ns, CELLS, id, row.key));
    if (cell !== undefined) found.set(`${id}\u0000${bytesKey(row.key)}`, cell);
  });
  return cells.map(({ id }, i) => found.get(`${id}\u0000${keyOf[i] as string}`));
}

/**
 * The requests for `asked`, packing partitions in first-seen order: one joins
 * the open request while it keeps ≤ `readIdsPerRequest` ids and ids × distinct
 * keys ≤ `readCellsPerRequest` (100 tombstones of one key share a request, 16
 * links of different keys do). A partition asked for more keys than that
 * gets requests of its own, `readKeysPerRequest` keys each.
 */
export function packRequests(
  asked: Asked,
  limits: { readonly readIdsPerRequest: number; readonly readCellsPerRequest: number; readonly readKeysPerRequest: number },
): CellRequest[] {
  const requests: CellRequest[] = [];
  let open: CellRequest | undefined;
  for (const [id, keys] of asked) {
    if (keys.size > limits.readKeysPerRequest) {
      const all = [...keys];
      for (let i = 0; i < all.length; i += limits.readKeysPerRequest) requests.push({ ids: [id], keys: new Map(all.slice(i, i + limits.readKeysPerRequest)) });
      continue;
    }
    if (open !== undefined && open.ids.length < limits.readIdsPerRequest) {
      let union = open.keys.size;
      for (const k of keys.keys()) if (!open.keys.has(k)) union++;
      if ((open.ids.length + 1) * union <= limits.readCellsPerRequest) {
        open.ids.push(id);
        for (const [k, key] of keys) open.keys.set(k, key);
        continue;
      }
    }
    open = { ids: [id], keys: new Map(keys) };
    requests.push(open);
  }
  return requests;
}
