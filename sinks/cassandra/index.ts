// The Cassandra backend of the two-level map port.
export { createCassandraStore } from './createCassandraStore.ts';
export type { CassandraStoreConfig } from './cassandraStoreConfig.ts';
export { toStoreError } from './toStoreError.ts';
export { waitForQuietCassandra, type QuietWait, type QuietWaitOptions } from './waitForQuietCassandra.ts';
export { alterKeyspaceReplication, keyspaceDrift, readKeyspaceReplication, type StoredReplication } from './keyspaceDrift.ts';
export { nativePortOptions, sharedNativePort } from './nativePort.ts';
