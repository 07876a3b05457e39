// Public surface of sinks/namespaces: namespace names and the pure key/value codec of each (docs/architecture.md §5).
export { NamespaceCodecError, isNamespaceCodecError } from './NamespaceCodecError.ts';
export {
  edgePropsNamespace,
  forwardLinkNamespace,
  forwardRecentNamespace,
  indexedLinkNamespace,
  linkNamespace,
  recentNamespace,
  reverseLinkNamespace,
  reverseRecentNamespace,
  type LinkDirection,
} from './edgeTypeNamespaces.ts';
export {
  DEGREE_DIRTY_NAMESPACE,
  DEGREE_MIRROR_NAMESPACE,
  DEGREES_NAMESPACE,
  NODE_TOMBSTONES_NAMESPACE,
  WIDE_ROW_CHECKPOINTS_NAMESPACE,
  WIDE_ROWS_LOG_NAMESPACE,
  WIDE_ROWS_NAMESPACE,
} from './globalNamespaces.ts';
export {
  decodeWideRowLogKey,
  encodeWideRowLogKey,
  WIDE_ROW_LOG_BUCKET_MS,
  WIDE_ROW_LOG_TTL_SECONDS,
  wideRowLogBucketId,
  wideRowLogBucketIds,
  wideRowLogKeyFrom,
} from './wideRowLog.ts';
export {
  bucketCount,
  bucketOfKey,
  SPLIT_NAMESPACE_SUFFIX,
  splitBucketId,
  splitNamespace,
  splittableNamespaces,
  type SplitLayout,
  type SplitStrategy,
  type SplitTarget,
} from './splitLayout.ts';
export {
  decodeWideRowKey,
  decodeWideRowRecord,
  encodeWideRowKey,
  encodeWideRowRecord,
  layoutOf,
  splitTargetOf,
  versionOf,
  MIRRORED_STATUSES,
  WIDE_ROW_STATUSES,
  type WideRowRecord,
  type WideRowStatus,
  type WideRowVerification,
} from './wideRowRecord.ts';
export { encodeCheckpointKey } from './checkpointKey.ts';
export {
  DEGREE_MIRROR_BUCKETS,
  degreeFlagsPrefix,
  degreeGroupBucketsPrefix,
  degreeGroupsPrefix,
  encodeDegreeBucketKey,
  encodeDegreeGroupKey,
  encodeDegreeFlagKey,
  encodeDegreeMirrorMarkerKey,
} from './degreeMirror.ts';
export { edgestreamNamespaces } from './edgestreamNamespaces.ts';
export { LINK_VALUE_VERSION, LinkState, decodeLinkValue, encodeLinkValue, isActiveAtInvertedTime, isActiveLinkValue, type LinkValue } from './linkValue.ts';
export { decodeVertexKey, encodeVertexKey } from './vertexKey.ts';
export { MAX_TIME, decodeRecentKey, encodeRecentKey, invertTime, recentKeyPeerBytes } from './recentKey.ts';
export { encodeExactRecentValue, encodeUnverifiedRecentValue, exactRecentLink, isExactRecentValue, recentValueMutationId } from './recentValue.ts';
export { deriveRecentPage, recentEntryOfLink, type DerivedRecentPage, type LinkPager } from './deriveRecentPage.ts';
export { EDGE_ID_SEPARATOR, edgePropsId } from './edgePropsId.ts';
export {
  BAG_KEY_MARKER,
  BagDirection,
  decodeBagPropertyKey,
  edgePropertyBag,
  encodeBagPropertyKey,
  isBagKey,
  keyBeforeBag,
  type EdgePropertyBag,
} from './edgePropertyBag.ts';
export { decodePropertyValue, encodePropertyValue, type PropertyValue } from './propertyValue.ts';
export { propertyJson } from './propertyJson.ts';
export { decodePropertyNameKey, encodePropertyNameKey } from './propertyNameKey.ts';
export {
  NODE_TOMBSTONE_KEY,
  NODE_TOMBSTONE_VERSION,
  decodeNodeTombstoneValue,
  encodeNodeTombstoneValue,
  type NodeTombstoneValue,
} from './nodeTombstoneValue.ts';
export {
  DEGREE_DIRTY_SHARDS,
  decodeDegreeDirtyKey,
  degreeDirtyShard,
  degreeDirtyTargetPrefix,
  degreeDirtyShards,
  degreeIntentShard,
  encodeDegreeDirtyKey,
  type DegreeDirtyMark,
} from './degreeDirtyMark.ts';
export { decodeDegreeCount, decodeDegreesKey, encodeDegreeCount, encodeDegreesKey } from './degreeCount.ts';
export { fnv1a32 } from './fnv1a32.ts';
