import type { EdgestreamConfig } from '../schemas/config/edgestreamConfig.ts';
import { createCassandraStore, nativePortOptions, type CassandraStoreConfig } from '../sinks/cassandra/index.ts';
import { edgestreamNamespaces } from '../sinks/namespaces/index.ts';
import type { TwoLevelMapStore } from '../sinks/store/TwoLevelMapStore.ts';
import type { StackEndpoints } from '../stack/endpoints.ts';

/** Where Cassandra is and how to reach it (TLS, credentials): the store config's form. */
function cassandraEndpoint(endpoints: StackEndpoints) {
  return { contactPoints: [...endpoints.cassandraContactPoints], localDataCenter: endpoints.cassandraLocalDc, ...endpoints.security?.cassandra };
}

/** The same as cassandra-driver's Client takes it (the store's session adds the native port itself). */
export function cassandraConnection(endpoints: StackEndpoints) {
  return { ...cassandraEndpoint(endpoints), ...nativePortOptions(endpoints.cassandraContactPoints) };
}

/**
 * The one bridge from the edgestream config to the store's config: where Cassandra is and how to
 * reach it (endpoints, TLS, credentials), the keyspace and its replication, the levels per
 * operation class and every namespace the config declares.
 */
export function cassandraStoreConfigFor(endpoints: StackEndpoints, config: EdgestreamConfig) {
  return {
    ...cassandraEndpoint(endpoints),
    keyspace: config.cassandra.keyspace,
    replication: config.cassandra.replication,
    consistency: config.cassandra.consistency,
    namespaces: edgestreamNamespaces(config),
  } satisfies CassandraStoreConfig;
}

/** The Cassandra store with every namespace the config declares (links, recent indexes, props, globals). */
export function openStore(endpoints: StackEndpoints, config: EdgestreamConfig): Promise<TwoLevelMapStore> {
  return createCassandraStore({
    ...cassandraStoreConfigFor(endpoints, config),
    // Partition groups of one chunk's mutateMany written at once (the store's own default is 16).
    mutationConcurrency: config.runtime.writeConcurrency,
    // Tombstones live this long; replay's resurrection horizon is derived from it (config retention).
    tableOptions: { gcGraceSeconds: config.retention.gcGraceSeconds },
  });
}
