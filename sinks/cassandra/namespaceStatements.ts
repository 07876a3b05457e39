import { chunkTableName, qualifiedTable } from './schemaCql.ts';

/**
 * The CQL of one namespace, built once per store from validated identifiers
 * and always executed as prepared statements with bound values (the driver
 * prepares each text once and caches it). Parameter order is noted per
 * statement because `USING TIMESTAMP ?` comes first in DELETEs and last in
 * INSERTs.
 */
export interface NamespaceStatements {
  /** [id, key, value, value_metadata, writeTime] */
  readonly insert: string;
  /** [writeTime, id, key] */
  readonly deleteRow: string;
  /** [writeTime, id, keys]: the rows of several keys, one timestamp (see `deletionStatements`). */
  readonly deleteRows: string;
  /** [writeTime, id, boundary]: every key >= boundary. */
  readonly deleteFrom: string;
  /** [writeTime, id, boundary]: every key < boundary. */
  readonly deleteBelow: string;
  /** [writeTime, id, start, end]: every key in [start, end) (a range tombstone). */
  readonly deleteRange: string;
  /** [writeTime, id] */
  readonly deletePartition: string;
  /** [id, key] → key, value, value_metadata, write_time */
  readonly get: string;
  /** [ids, keys] → id, key, value, value_metadata, write_time of each (id, key) pair present */
  readonly getCells: string;
  /** [id, keys] → key, value, value_metadata, write_time */
  readonly getKeys: string;
  /**
   * [ids, perPartitionLimit, limit] → id, key, value, value_metadata, write_time:
   * the smallest keys of each partition. `limit` (ids × perPartitionLimit) never
   * binds; it lets Cassandra answer unpaged (see `readFirstSlices`).
   */
  readonly sliceMany: string;
  /** [id, start, end, limit], [id, start, limit] when `end` is open. */
  readonly slice: {
    readonly asc: { readonly bounded: string; readonly open: string };
    readonly desc: { readonly bounded: string; readonly open: string };
  };
  /** [id, n] → key, value_metadata, greatest keys first. */
  readonly newestKeys: string;
  readonly chunks: ChunkStatements;
  /** The same reads without `write_time`, for `TwoLevelMapStore.values`. */
  readonly values: ReadStatements;
}

/** The reads a cell shape is read with: the cell reads above, or `values`. */
export type ReadStatements = Pick<NamespaceStatements, 'get' | 'getKeys' | 'sliceMany' | 'slice'>;

export interface ChunkStatements {
  /** [id, key, write_ts, digest, idx, data, writeTime] */
  readonly insert: string;
  /** [id, key, write_ts, digest] → idx, data in idx order */
  readonly select: string;
  /** [writeTime, id, key]: drops every chunk written at <= writeTime. */
  readonly collect: string;
}

const CELL_COLUMNS = 'key, value, value_metadata, WRITETIME(value) AS write_time';
/** Without WRITETIME: readers never use it, and parsing a bigint per row is a good part of a small cell's client CPU. */
const VALUE_COLUMNS = 'key, value, value_metadata';

function readStatements(t: string, columns: string): ReadStatements {
  const slice = (order: 'ASC' | 'DESC', bounded: boolean): string =>
    `SELECT ${columns} FROM ${t} WHERE id = ? AND key >= ?${bounded ? ' AND key < ?' : ''} ORDER BY key ${order} LIMIT ?`;
  return {
    get: `SELECT ${columns} FROM ${t} WHERE id = ? AND key = ?`,
    getKeys: `SELECT ${columns} FROM ${t} WHERE id = ? AND key IN ?`,
    sliceMany: `SELECT id, ${columns} FROM ${t} WHERE id IN ? PER PARTITION LIMIT ? LIMIT ?`,
    slice: {
      asc: { bounded: slice('ASC', true), open: slice('ASC', false) },
      desc: { bounded: slice('DESC', true), open: slice('DESC', false) },
    },
  };
}

export function namespaceStatements(keyspace: string, namespace: string): NamespaceStatements {
  const t = qualifiedTable(keyspace, namespace);
  const c = qualifiedTable(keyspace, chunkTableName(namespace));
  return {
    ...readStatements(t, CELL_COLUMNS),
    values: readStatements(t, VALUE_COLUMNS),
    insert: `INSERT INTO ${t} (id, key, value, value_metadata) VALUES (?, ?, ?, ?) USING TIMESTAMP ?`,
    deleteRow: `DELETE FROM ${t} USING TIMESTAMP ? WHERE id = ? AND key = ?`,
    deleteRows: `DELETE FROM ${t} USING TIMESTAMP ? WHERE id = ? AND key IN ?`,
    deleteFrom: `DELETE FROM ${t} USING TIMESTAMP ? WHERE id = ? AND key >= ?`,
    deleteBelow: `DELETE FROM ${t} USING TIMESTAMP ? WHERE id = ? AND key < ?`,
    deleteRange: `DELETE FROM ${t} USING TIMESTAMP ? WHERE id = ? AND key >= ? AND key < ?`,
    deletePartition: `DELETE FROM ${t} USING TIMESTAMP ? WHERE id = ?`,
    getCells: `SELECT id, ${CELL_COLUMNS} FROM ${t} WHERE id IN ? AND key IN ?`,
    newestKeys: `SELECT key, value_metadata FROM ${t} WHERE id = ? ORDER BY key DESC LIMIT ?`,
    chunks: {
      insert: `INSERT INTO ${c} (id, key, write_ts, digest, idx, data) VALUES (?, ?, ?, ?, ?, ?) USING TIMESTAMP ?`,
      select: `SELECT idx, data FROM ${c} WHERE id = ? AND key = ? AND write_ts = ? AND digest = ?`,
      collect: `DELETE FROM ${c} USING TIMESTAMP ? WHERE id = ? AND key = ?`,
    },
  };
}
