// The storage port: the interface every backend implements and the pure helpers they share.
export type {
  Cell,
  CellAddress,
  KeyValue,
  Mutation,
  NamespaceStore,
  NamespaceValues,
  PrefixScanQuery,
  SliceOrder,
  SlicePage,
  SliceQuery,
  StoreFeatures,
  TwoLevelMapStore,
  WriteOptions,
} from './TwoLevelMapStore.ts';
export { StoreError, STORE_ERROR_CODES, isStoreError } from './StoreError.ts';
export type { MutationFailure, StoreErrorCode } from './StoreError.ts';
export { compareBytes, bytesEqual } from './compareBytes.ts';
export { prefixEnd, keySuccessor } from './prefixEnd.ts';
export { consolidateMutations } from './consolidateMutations.ts';
export { bytesKey, cellKey } from './cellKey.ts';
export type { PartitionWrites, TimedKey, TimedKeyValue } from './consolidateMutations.ts';
export {
  NAMESPACE_NAME_PATTERN,
  namespaceConfigSchema,
  namespaceNameSchema,
  valueLimitsSchema,
} from './storeConfig.ts';
export type { NamespaceConfigInput, NamespaceSettings } from './storeConfig.ts';
export { MAX_ID_BYTES, MAX_KEY_BYTES, MAX_SLICE_LIMIT, MAX_WRITE_TIME } from './validateArgs.ts';
export { decorateStore } from './decorateStore.ts';
export { groupByReplicaSet, oneReplicaGroup, type ReplicaGroup } from './replicaGroups.ts';
export { remapPartialFailure } from './remapPartialFailure.ts';
