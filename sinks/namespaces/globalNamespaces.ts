/** Namespaces shared by every edge type (docs/architecture.md §5, "Global namespaces"). */

/** Partition vertex id, one cell under the empty key: the vertex's newest REMOVE_NODE (see nodeTombstoneValue). */
export const NODE_TOMBSTONES_NAMESPACE = 'node_tombstones';
/** Partition `shard-<n>`, key `type ␀ out|in ␀ vertex`, empty value: degrees waiting for a recount. */
export const DEGREE_DIRTY_NAMESPACE = 'degree_dirty';
/** Partition vertex id, key `type ␀ out|in`, value u64 BE count of ACTIVE links. */
export const DEGREES_NAMESPACE = 'degrees';
/** Partition vertex id: the delta recounter's per-peer flags, bucket counts and marker (see degreeMirror). */
export const DEGREE_MIRROR_NAMESPACE = 'degree_mirror';
/** Partition = a splittable namespace, key = partition id, value WideRowRecord: the split metadata (§6). */
export const WIDE_ROWS_NAMESPACE = 'wide_rows';
/** Partition = a splittable namespace, key `stage ␀ generation ␀ partition id`, value the stage's JSON checkpoint. */
export const WIDE_ROW_CHECKPOINTS_NAMESPACE = 'wide_row_checkpoints';
/**
 * Partition `namespace/bucket start ms` (one per splittable namespace and hour), key u64 BE writer ms ‖ partition id,
 * empty value: every `wide_rows` write is logged here first, so a split directory reloads only what changed (§6).
 */
export const WIDE_ROWS_LOG_NAMESPACE = 'wide_rows_log';
