import { CHUNK_TABLE_SUFFIX } from '../store/storeConfig.ts';
import type { Replication, TableOptions } from './cassandraStoreConfig.ts';
import { tableOptionsClause, type NamespaceTableOptions } from './tableOptions.ts';

/**
 * DDL text. DDL cannot be prepared, so everything interpolated here is a
 * validated identifier, quoted anyway (so reserved words such as "key" or
 * "table" still work), or fixed vocabulary.
 */

const IDENTIFIER = /^[a-z][a-z0-9_]{0,47}$/;

export function quoteIdentifier(name: string): string {
  // Defence in depth: config validation already guarantees this.
  if (!IDENTIFIER.test(name)) throw new TypeError(`not a validated CQL identifier: ${JSON.stringify(name)}`);
  return `"${name}"`;
}

export function qualifiedTable(keyspace: string, table: string): string {
  return `${quoteIdentifier(keyspace)}.${quoteIdentifier(table)}`;
}

export function chunkTableName(namespace: string): string {
  return `${namespace}${CHUNK_TABLE_SUFFIX}`;
}

export function replicationMap(replication: Replication): string {
  if (replication.class === 'SimpleStrategy') {
    return `{'class': 'SimpleStrategy', 'replication_factor': ${replication.replicationFactor}}`;
  }
  const dcs = Object.entries(replication.dataCenters).map(([dc, rf]) => `'${dc}': ${rf}`);
  return `{'class': 'NetworkTopologyStrategy', ${dcs.join(', ')}}`;
}

export function createKeyspaceCql(keyspace: string, replication: Replication): string {
  return `CREATE KEYSPACE IF NOT EXISTS ${quoteIdentifier(keyspace)} WITH replication = ${replicationMap(replication)}`;
}

export function alterKeyspaceCql(keyspace: string, replication: Replication): string {
  return `ALTER KEYSPACE ${quoteIdentifier(keyspace)} WITH replication = ${replicationMap(replication)}`;
}

/** The two-level map table of DESIGN.md section 4. */
export function createNamespaceTableCql(keyspace: string, namespace: string, options: NamespaceTableOptions): string {
  return (
    `CREATE TABLE IF NOT EXISTS ${qualifiedTable(keyspace, namespace)} ` +
    '(id text, key blob, value blob, value_metadata blob, PRIMARY KEY (id, key))' +
    tableOptionsClause('key ASC', options)
  );
}

/**
 * The companion table of a chunked namespace: one partition per (id, key),
 * so a large value never widens the namespace's own partition, and the
 * digest in the clustering key keeps two versions written at the same time
 * from mixing their chunks.
 */
export function createChunkTableCql(keyspace: string, namespace: string, options: TableOptions): string {
  return (
    `CREATE TABLE IF NOT EXISTS ${qualifiedTable(keyspace, chunkTableName(namespace))} ` +
    '(id text, key blob, write_ts bigint, digest blob, idx int, data blob, PRIMARY KEY ((id, key), write_ts, digest, idx))' +
    tableOptionsClause('write_ts ASC, digest ASC, idx ASC', options)
  );
}
