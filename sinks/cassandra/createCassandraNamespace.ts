import type { PartitionWrites, TimedKey, TimedKeyValue } from '../store/consolidateMutations.ts';
import { cutPage, prefixSliceQuery, resolveSlice } from '../store/resolveSlice.ts';
import { mapBoundedOrThrow } from '../store/mapBounded.ts';
import type { KeyValue, NamespaceStore, NamespaceValues, SlicePage, SliceQuery, StoreFeatures } from '../store/TwoLevelMapStore.ts';
import { assertCount, assertId, assertKey, assertLimit, assertValue, assertWriteTime } from '../store/validateArgs.ts';
import { asBuffer, type NamespaceRuntime } from './namespaceRuntime.ts';
import { readCellsAt } from './readCellsAt.ts';
import { CELLS, readCell, readCellsOfKeys, resolveRows, toStoredRows, VALUES, type CellShape } from './readCells.ts';
import { readFirstSlices } from './readFirstSlices.ts';
import { collectChunks, writePartition } from './writePartition.ts';

/** Rows per driver page of a slice: a page of up to 5 000 cells (and the look-ahead row) is one request. */
const SLICE_FETCH_ROWS = 5_001;

/**
 * The four reads of one namespace in one cell shape (with write times for
 * `NamespaceStore`, without for `NamespaceValues`), arguments checked first.
 */
function namespaceReads<C extends KeyValue>(ns: NamespaceRuntime, shape: CellShape<C>) {
  const { settings, session } = ns;
  const name = settings.name;
  const cql = shape.statements(ns);
  const slice = async (id: string, query: SliceQuery): Promise<SlicePage<C>> => {
    assertId(id);
    const r = resolveSlice(query);
    if (r.empty) return { cells: [] };
    const variant = cql.slice[r.order];
    const statement =
      r.end === undefined
        ? { query: variant.open, params: [id, asBuffer(r.start), r.limit + 1] }
        : { query: variant.bounded, params: [id, asBuffer(r.start), asBuffer(r.end), r.limit + 1] };
    // One round trip for a reader's page (the session pages at 1000 rows otherwise).
    const rows = await session.readRows(statement, { maxRows: r.limit + 1, fetchSize: Math.min(r.limit + 1, SLICE_FETCH_ROWS) }, `slice ${name}/${id}`);
    // Cut before resolving chunks: the extra row only proves there is a next page.
    const page = cutPage(toStoredRows(rows, shape.writeTimes), r);
    const cells = await resolveRows(ns, shape, id, page.rows);
    return page.pageState === undefined ? { cells } : { cells, pageState: page.pageState };
  };
  return {
    slice,
    async get(id: string, key: Uint8Array): Promise<C | undefined> {
      assertId(id);
      assertKey(key);
      return readCell(ns, shape, id, key);
    },
    async getKeys(id: string, keys: readonly Uint8Array[]): Promise<(C | undefined)[]> {
      assertId(id);
      for (const key of keys) assertKey(key);
      return keys.length === 0 ? [] : readCellsOfKeys(ns, shape, id, keys);
    },
    async sliceMany(ids: readonly string[], { limit }: { readonly limit: number }): Promise<SlicePage<C>[]> {
      for (const id of ids) assertId(id);
      assertLimit(limit);
      return ids.length === 0 ? [] : readFirstSlices(ns, shape, ids, limit);
    },
  };
}

/** `TwoLevelMapStore.values` on Cassandra: the same reads without WRITETIME. */
export function createCassandraNamespaceValues(ns: NamespaceRuntime): NamespaceValues {
  return { namespace: ns.settings.name, ...namespaceReads(ns, VALUES) };
}

/**
 * One namespace on Cassandra. Single writes are one-entry partition groups,
 * so put/delete and `mutateMany` share one write path (`writePartition`).
 */
export function createCassandraNamespace(ns: NamespaceRuntime, features: StoreFeatures): NamespaceStore {
  const { settings, statements: cql, session } = ns;
  const name = settings.name;
  const reads = namespaceReads(ns, CELLS);
  const { slice } = reads;

  /** The `n` greatest keys with their metadata (to find chunked rows), greatest first. */
  const newest = async (id: string, n: number): Promise<{ key: Uint8Array; chunked: boolean }[]> => {
    const rows = await session.readRows({ query: cql.newestKeys, params: [id, n] }, { maxRows: n }, `newest keys of ${name}/${id}`);
    return rows.map((row) => {
      const metadata = row.get('value_metadata') as Buffer | null;
      return { key: new Uint8Array(row.get('key') as Buffer), chunked: metadata !== null && metadata.length > 0 };
    });
  };

  const checkWrite = (id: string, writeTime: bigint): void => {
    assertId(id);
    assertWriteTime(writeTime);
  };

  return {
    namespace: name,
    features,
    async put(id, key, value, writeTime) {
      checkWrite(id, writeTime);
      assertKey(key);
      assertValue(value, settings.maxValueBytes);
      await writePartition(ns, single(name, id, { additions: [{ key, value, writeTime }] }));
    },
    async delete(id, key, writeTime) {
      checkWrite(id, writeTime);
      assertKey(key);
      await writePartition(ns, single(name, id, { deletions: [{ key, writeTime }] }));
    },
    ...reads,
    async getCells(cells) {
      for (const { id, key } of cells) {
        assertId(id);
        assertKey(key);
      }
      return cells.length === 0 ? [] : readCellsAt(ns, cells);
    },
    async scanPrefix(id, prefix, query) {
      assertKey(prefix);
      return slice(id, prefixSliceQuery(prefix, query));
    },
    async deleteNewest(id, n, writeTime) {
      checkWrite(id, writeTime);
      assertCount(n);
      if (n === 0) return 0;
      const rows = await newest(id, n);
      const boundary = rows[rows.length - 1];
      if (boundary === undefined) return 0;
      await session.execute({ query: cql.deleteFrom, params: [writeTime, id, asBuffer(boundary.key)] }, `deleteNewest ${name}/${id}`);
      // The chunks of the rows we saw; rows in the range we did not see keep theirs (unreachable garbage).
      const chunked = rows.filter((r) => r.chunked).map((r) => collectChunks(ns, id, r.key, writeTime));
      await mapBoundedOrThrow(chunked, ns.tuning.chunkConcurrency, (s) => session.execute(s, `collect chunks of ${name}/${id}`));
      return rows.length;
    },
    async keepNewest(id, n, writeTime) {
      checkWrite(id, writeTime);
      assertCount(n);
      if (n === 0) {
        await session.execute({ query: cql.deletePartition, params: [writeTime, id] }, `keepNewest ${name}/${id}`);
        return 0;
      }
      const rows = await newest(id, n);
      if (rows.length < n) return rows.length;
      const boundary = (rows[n - 1] as { key: Uint8Array }).key;
      await session.execute({ query: cql.deleteBelow, params: [writeTime, id, asBuffer(boundary)] }, `keepNewest ${name}/${id}`);
      return n;
    },
  };
}

function single(
  namespace: string,
  id: string,
  writes: { additions?: readonly TimedKeyValue[]; deletions?: readonly TimedKey[] },
): PartitionWrites {
  return { namespace, id, clears: [], prefixClears: [], additions: writes.additions ?? [], deletions: writes.deletions ?? [], mutationIndexes: [0] };
}
