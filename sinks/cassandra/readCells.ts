import type { types } from 'cassandra-driver';
import { bytesKey } from '../store/cellKey.ts';
import { compareBytes } from '../store/compareBytes.ts';
import { mapBoundedOrThrow } from '../store/mapBounded.ts';
import { StoreError } from '../store/StoreError.ts';
import type { Cell, KeyValue } from '../store/TwoLevelMapStore.ts';
import { decodeChunkMetadata, type ChunkMetadata } from './chunkMetadata.ts';
import { assembleChunks } from './chunkValue.ts';
import { asBuffer, type NamespaceRuntime } from './namespaceRuntime.ts';
import type { ReadStatements } from './namespaceStatements.ts';

/** A row of a namespace table as read (key, value, value_metadata and, in a cell read, WRITETIME(value)). */
export interface StoredRow {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
  readonly metadata: Uint8Array;
  readonly writeTime: bigint | undefined;
}

/** What a read returns per row: cells with their write time (`CELLS`), or key and value only (`VALUES`). */
export interface CellShape<C extends KeyValue> {
  readonly writeTimes: boolean;
  statements(ns: NamespaceRuntime): ReadStatements;
  /** The cell of a row, with its value (assembled from chunks if it was chunked). */
  cell(row: StoredRow, value: Uint8Array): C;
}

export const CELLS: CellShape<Cell> = {
  writeTimes: true,
  statements: (ns) => ns.statements,
  cell(row, value) {
    if (row.writeTime === undefined) throw new Error('a cell read returned a row without write_time');
    return { key: row.key, value, writeTime: row.writeTime };
  },
};

export const VALUES: CellShape<KeyValue> = {
  writeTimes: false,
  statements: (ns) => ns.statements.values,
  cell: (row, value) => ({ key: row.key, value }),
};

const writeTimeOf = (row: types.Row, writeTimes: boolean): bigint | undefined => (writeTimes ? BigInt(row.get('write_time') as bigint) : undefined);

/** Keeps chunk reads to a few MiB per page whatever the chunk size. */
const CHUNK_PAGE_BYTES = 4 * 1024 * 1024;

export function toStoredRow(row: types.Row, writeTimes: boolean): StoredRow {
  return {
    key: ownBytes(row.get('key')),
    value: ownBytes(row.get('value')),
    metadata: metadataOf(row),
    writeTime: writeTimeOf(row, writeTimes),
  };
}

/**
 * `toStoredRow` of every row of one response, with all their keys and values
 * copied into one buffer the caller owns: one allocation per response instead
 * of two per row (a page of small link cells spent more time allocating and
 * collecting its copies than the driver spent decoding them). A cell kept
 * from such a page keeps the page's bytes alive, so only pages use it.
 */
export function toStoredRows(rows: readonly types.Row[], writeTimes: boolean): StoredRow[] {
  let bytes = 0;
  for (const row of rows) bytes += byteLength(row.get('key')) + byteLength(row.get('value'));
  const arena = new Uint8Array(bytes);
  let at = 0;
  const copy = (value: unknown): Uint8Array => {
    const start = at;
    if (value instanceof Uint8Array) {
      arena.set(value, start);
      at += value.length;
    }
    return arena.subarray(start, at);
  };
  return rows.map((row) => ({ key: copy(row.get('key')), value: copy(row.get('value')), metadata: metadataOf(row), writeTime: writeTimeOf(row, writeTimes) }));
}

const NO_METADATA = new Uint8Array(0);

/** Chunk metadata, read only here (never handed out): rows without it share one empty array. */
function metadataOf(row: types.Row): Uint8Array {
  const metadata: unknown = row.get('value_metadata');
  return metadata instanceof Uint8Array && metadata.length > 0 ? new Uint8Array(metadata) : NO_METADATA;
}

const byteLength = (value: unknown): number => (value instanceof Uint8Array ? value.length : 0);

/**
 * The live cell under (id, key), following chunk metadata. If the chunks are
 * gone (a newer write collected them between our two reads), the row is read
 * again, up to `chunkReadAttempts` times, before giving up with a retriable
 * `chunks_missing`.
 */
export async function readCell<C extends KeyValue>(ns: NamespaceRuntime, shape: CellShape<C>, id: string, key: Uint8Array): Promise<C | undefined> {
  const what = `get ${ns.settings.name}/${id}`;
  for (let attempt = 1; ; attempt++) {
    const rows = await ns.session.readRows({ query: shape.statements(ns).get, params: [id, asBuffer(key)] }, { maxRows: 1 }, what);
    if (rows[0] === undefined) return undefined;
    const cell = await resolveRow(ns, shape, id, toStoredRow(rows[0], shape.writeTimes));
    if (cell !== undefined) return cell;
    if (attempt >= ns.tuning.chunkReadAttempts) {
      throw new StoreError('chunks_missing', `${what}: chunks of a large value stayed missing after ${attempt} reads`);
    }
  }
}

/**
 * `readCell` for many keys of one partition: `id = ? AND key IN ?` lists of at
 * most `readKeysPerRequest` distinct keys (one request each, `mutationConcurrency`
 * in flight), then the chunk follow-ups of the rows that need them. The keys
 * are sorted and deduplicated once, and the rows (which come back in clustering
 * order) matched to them by one merge walk: no string per key on this hot path
 * (a newest page's validation); a row the walk cannot place falls back to
 * matching by value.
 */
export async function readCellsOfKeys<C extends KeyValue>(ns: NamespaceRuntime, shape: CellShape<C>, id: string, keys: readonly Uint8Array[]): Promise<(C | undefined)[]> {
  const order = keys.map((_, i) => i).sort((a, b) => compareBytes(keys[a] as Uint8Array, keys[b] as Uint8Array));
  const distinct: Uint8Array[] = [];
  const slotOf = new Array<number>(keys.length);
  for (const i of order) {
    const key = keys[i] as Uint8Array;
    const last = distinct.at(-1);
    if (last === undefined || compareBytes(last, key) !== 0) distinct.push(key);
    slotOf[i] = distinct.length - 1;
  }
  const slices: Uint8Array[][] = [];
  for (let i = 0; i < distinct.length; i += ns.tuning.readKeysPerRequest) slices.push(distinct.slice(i, i + ns.tuning.readKeysPerRequest));
  const what = `get ${ns.settings.name}/${id} <${distinct.length} keys>`;
  const rowsOf = await mapBoundedOrThrow(slices, ns.tuning.mutationConcurrency, async (slice) => {
    const rows = await ns.session.readRows({ query: shape.statements(ns).getKeys, params: [id, slice.map(asBuffer)] }, { maxRows: slice.length, fetchSize: slice.length }, what);
    return toStoredRows(rows, shape.writeTimes);
  });
  const cells = await resolveRows(ns, shape, id, rowsOf.flat());
  const found = matchSorted(distinct, cells);
  return keys.map((_, i) => found[slotOf[i] as number]);
}

/** The cell of each of `sorted` (ascending, distinct keys), from cells in ascending key order. */
function matchSorted<C extends KeyValue>(sorted: readonly Uint8Array[], cells: readonly C[]): (C | undefined)[] {
  const out = new Array<C | undefined>(sorted.length);
  let j = 0;
  for (const cell of cells) {
    while (j < sorted.length && compareBytes(sorted[j] as Uint8Array, cell.key) < 0) j++;
    if (j === sorted.length || compareBytes(sorted[j] as Uint8Array, cell.key) !== 0) return matchByValue(sorted, cells);
    out[j++] = cell;
  }
  return out;
}

function matchByValue<C extends KeyValue>(sorted: readonly Uint8Array[], cells: readonly C[]): (C | undefined)[] {
  const byKey = new Map(cells.map((c) => [bytesKey(c.key), c] as const));
  return sorted.map((k) => byKey.get(bytesKey(k)));
}

/** The cells of rows read by a slice, in the same order; rows deleted meanwhile are dropped. */
export async function resolveRows<C extends KeyValue>(ns: NamespaceRuntime, shape: CellShape<C>, id: string, rows: readonly StoredRow[]): Promise<C[]> {
  // The common case (no chunked value) without a promise per row.
  if (rows.every((row) => row.metadata.length === 0)) return rows.map((row) => shape.cell(row, row.value));
  const cells = await mapBoundedOrThrow(rows, ns.tuning.chunkConcurrency, async (row) =>
    (await resolveRow(ns, shape, id, row)) ?? readCell(ns, shape, id, row.key),
  );
  return cells.filter((c): c is C => c !== undefined);
}

/** The cell a row stands for; undefined when its chunks are missing or do not match. */
export async function resolveRow<C extends KeyValue>(ns: NamespaceRuntime, shape: CellShape<C>, id: string, row: StoredRow): Promise<C | undefined> {
  const meta = decodeChunkMetadata(row.metadata);
  if (meta === undefined) return shape.cell(row, row.value);
  if (!ns.settings.chunking) {
    throw new StoreError('corrupt_value', `${ns.settings.name}/${id}: a chunked value in a namespace configured without chunking`);
  }
  const value = await readChunks(ns, id, row.key, meta);
  return value === undefined ? undefined : shape.cell(row, value);
}

async function readChunks(ns: NamespaceRuntime, id: string, key: Uint8Array, meta: ChunkMetadata): Promise<Uint8Array | undefined> {
  const rows = await ns.session.readRows(
    { query: ns.statements.chunks.select, params: [id, asBuffer(key), meta.writeTime, asBuffer(meta.digest)] },
    { maxRows: meta.chunkCount + 1, fetchSize: Math.max(1, Math.floor(CHUNK_PAGE_BYTES / ns.settings.chunkBytes)) },
    `read chunks of ${ns.settings.name}/${id}`,
  );
  const chunks = rows.map((r) => ({ idx: r.get('idx') as number, data: r.get('data') as Buffer }));
  return assembleChunks(meta, chunks);
}

/** A copy the caller owns: driver buffers may be views into a larger response frame. */
function ownBytes(value: unknown): Uint8Array {
  return value instanceof Uint8Array ? new Uint8Array(value) : new Uint8Array(0);
}
