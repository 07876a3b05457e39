import type { EdgestreamConfig } from '../schemas/config/edgestreamConfig.ts';
import { createCassandraStore } from '../sinks/cassandra/index.ts';
import { edgestreamNamespaces } from '../sinks/namespaces/index.ts';
import type { TwoLevelMapStore } from '../sinks/store/TwoLevelMapStore.ts';
import type { StackEndpoints } from '../stack/endpoints.ts';

/** The Cassandra store with every namespace the config declares (links, recent indexes, props, globals). */
export function openStore(endpoints: StackEndpoints, config: EdgestreamConfig): Promise<TwoLevelMapStore> {
  return createCassandraStore({
    contactPoints: [...endpoints.cassandraContactPoints],
    localDataCenter: endpoints.cassandraLocalDc,
    keyspace: config.cassandra.keyspace,
    replication: { class: 'SimpleStrategy', replicationFactor: config.cassandra.replicationFactor },
    namespaces: edgestreamNamespaces(config),
    // Partition groups of one chunk's mutateMany written at once (the store's own default is 16).
    mutationConcurrency: config.runtime.writeConcurrency,
    // Tombstones live this long; replay's resurrection horizon is derived from it (config retention).
    tableOptions: { gcGraceSeconds: config.retention.gcGraceSeconds },
  });
}
