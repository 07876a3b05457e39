/** Namespaces shared by every edge type (docs/architecture.md §5, "Global namespaces"). */

/** Partition vertex id, one cell under the empty key: the vertex's newest REMOVE_NODE (see nodeTombstoneValue). */
export const NODE_TOMBSTONES_NAMESPACE = 'node_tombstones';
/** Partition `shard-<n>`, key `type ␀ out|in ␀ vertex`, empty value: degrees waiting for a recount. */
export const DEGREE_DIRTY_NAMESPACE = 'degree_dirty';
/** Partition vertex id, key `type ␀ out|in`, value u64 BE count of ACTIVE links. */
export const DEGREES_NAMESPACE = 'degrees';
