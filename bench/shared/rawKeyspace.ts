import cassandra from 'cassandra-driver';
import { cassandraConnection } from '../../cli/openStore.ts';
import { CONSISTENCY } from '../../sinks/cassandra/cassandraSession.ts';
import { createKeyspaceCql, createNamespaceTableCql } from '../../sinks/cassandra/schemaCql.ts';
import type { StackEndpoints } from '../../stack/endpoints.ts';
import { SINGLE_NODE_DURABILITY, type BenchDurability } from './benchDurability.ts';

/** How every raw-driver baseline writes and reads: prepared, at the store's consistency (LOCAL_QUORUM). */
export const RAW_OPTIONS = { prepare: true, isIdempotent: true, consistency: cassandra.types.consistencies.localQuorum };

/**
 * A bench's own cassandra-driver client options: the endpoints as the store reaches them (a
 * cluster's peers on its native port too, TLS, credentials) and, as every query's default,
 * the level the store reads at, so a raw read that names no level is as durable as edgestream's.
 */
export function rawClientOptions(endpoints: StackEndpoints, durability: BenchDurability = SINGLE_NODE_DURABILITY, extra: cassandra.ClientOptions = {}): cassandra.ClientOptions {
  return { ...cassandraConnection(endpoints), ...extra, queryOptions: { consistency: CONSISTENCY[durability.cassandra.consistency.reads], ...extra.queryOptions } };
}

/**
 * Runs `fn` with a cassandra-driver client (the store's client options) and a
 * fresh keyspace at the run's replication whose `tables` are made with the
 * store's own DDL; drops the keyspace and shuts the client down afterwards,
 * whatever happened.
 */
export async function withRawKeyspace<T>(endpoints: StackEndpoints, keyspace: string, tables: readonly string[], fn: (client: cassandra.Client) => Promise<T>, durability: BenchDurability = SINGLE_NODE_DURABILITY): Promise<T> {
  const client = new cassandra.Client(rawClientOptions(endpoints, durability, { encoding: { useBigIntAsLong: true }, socketOptions: { readTimeout: 12_000, connectTimeout: 10_000 } }));
  await client.connect();
  try {
    await client.execute(createKeyspaceCql(keyspace, durability.cassandra.replication), [], { readTimeout: 60_000 });
    for (const t of tables) await client.execute(createNamespaceTableCql(keyspace, t, {}), [], { readTimeout: 60_000 });
    return await fn(client);
  } finally {
    await client.execute(`DROP KEYSPACE IF EXISTS "${keyspace}"`, [], { readTimeout: 60_000 }).catch(() => undefined);
    await client.shutdown();
  }
}
