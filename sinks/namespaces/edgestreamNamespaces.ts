import { DEFAULT_MAX_INLINE_VALUE_BYTES, type NamespaceConfigInput } from '../store/storeConfig.ts';
import {
  edgePropsNamespace,
  forwardLinkNamespace,
  forwardRecentNamespace,
  reverseLinkNamespace,
  reverseRecentNamespace,
} from './edgeTypeNamespaces.ts';
import { DEGREE_DIRTY_NAMESPACE, DEGREE_MIRROR_NAMESPACE, DEGREES_NAMESPACE, NODE_TOMBSTONES_NAMESPACE, WIDE_ROW_CHECKPOINTS_NAMESPACE, WIDE_ROWS_LOG_NAMESPACE, WIDE_ROWS_NAMESPACE } from './globalNamespaces.ts';
import { WIDE_ROW_LOG_TTL_SECONDS } from './wideRowLog.ts';
import { splitNamespace, splittableNamespaces } from './splitLayout.ts';

/**
 * Every namespace the write and read paths need (with the split tables of §6) for these edge types, in the shape of
 * `sinks/store` `namespacesSchema`. Every value is bounded by the event limits,
 * and chunking costs one extra write per put (the collection of older chunks),
 * so it is off everywhere except property bags whose configured bag limit
 * (`limits.maxPropertyBagBytes`, which bounds any one property) exceeds the
 * inline size — only then can a single property value be too large to inline.
 */
export function edgestreamNamespaces(config: {
  readonly edgeTypes: readonly { readonly name: string }[];
  readonly limits?: { readonly maxPropertyBagBytes: number };
}): NamespaceConfigInput[] {
  const chunkProps = (config.limits?.maxPropertyBagBytes ?? Infinity) > DEFAULT_MAX_INLINE_VALUE_BYTES;
  const perType = config.edgeTypes.flatMap(({ name }): NamespaceConfigInput[] => [
    { name: forwardLinkNamespace(name), chunking: false },
    { name: reverseLinkNamespace(name), chunking: false },
    { name: forwardRecentNamespace(name), chunking: false },
    { name: reverseRecentNamespace(name), chunking: false },
    { name: edgePropsNamespace(name), chunking: chunkProps },
  ]);
  const splitTables = [...splittableNamespaces(config.edgeTypes).keys()].map((ns): NamespaceConfigInput => ({ name: splitNamespace(ns), chunking: false }));
  return [
    ...perType,
    ...splitTables,
    { name: NODE_TOMBSTONES_NAMESPACE, chunking: false },
    // Marks are deleted once counted; a resurrected one costs one extra recount, never a wrong count.
    { name: DEGREE_DIRTY_NAMESPACE, chunking: false, resurrectionSafe: true },
    { name: DEGREES_NAMESPACE, chunking: false },
    { name: DEGREE_MIRROR_NAMESPACE, chunking: false },
    { name: WIDE_ROWS_NAMESPACE, chunking: false },
    { name: WIDE_ROW_CHECKPOINTS_NAMESPACE, chunking: false },
    // A resurrected or repeated log cell only re-adds an id the filter may already hold.
    { name: WIDE_ROWS_LOG_NAMESPACE, chunking: false, resurrectionSafe: true, expireAfterSeconds: WIDE_ROW_LOG_TTL_SECONDS },
  ];
}
