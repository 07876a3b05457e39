import cassandra from 'cassandra-driver';
import { createKeyspaceCql, createNamespaceTableCql } from '../../sinks/cassandra/schemaCql.ts';
import type { StackEndpoints } from '../../stack/endpoints.ts';

/** How every raw-driver baseline writes and reads: prepared, at the store's consistency (LOCAL_QUORUM). */
export const RAW_OPTIONS = { prepare: true, isIdempotent: true, consistency: cassandra.types.consistencies.localQuorum };

/**
 * Runs `fn` with a cassandra-driver client (the store's client options) and a
 * fresh keyspace whose `tables` are made with the store's own DDL; drops the
 * keyspace and shuts the client down afterwards, whatever happened.
 */
export async function withRawKeyspace<T>(endpoints: StackEndpoints, keyspace: string, tables: readonly string[], fn: (client: cassandra.Client) => Promise<T>): Promise<T> {
  const client = new cassandra.Client({
    contactPoints: [...endpoints.cassandraContactPoints],
    localDataCenter: endpoints.cassandraLocalDc,
    encoding: { useBigIntAsLong: true },
    socketOptions: { readTimeout: 12_000, connectTimeout: 10_000 },
  });
  await client.connect();
  try {
    await client.execute(createKeyspaceCql(keyspace, { class: 'SimpleStrategy', replicationFactor: 1 }), [], { readTimeout: 60_000 });
    for (const t of tables) await client.execute(createNamespaceTableCql(keyspace, t, {}), [], { readTimeout: 60_000 });
    return await fn(client);
  } finally {
    await client.execute(`DROP KEYSPACE IF EXISTS "${keyspace}"`, [], { readTimeout: 60_000 }).catch(() => undefined);
    await client.shutdown();
  }
}
