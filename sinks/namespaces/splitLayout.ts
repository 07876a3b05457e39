import { compareBytes } from '../store/compareBytes.ts';
import { forwardLinkNamespace, forwardRecentNamespace, reverseLinkNamespace, reverseRecentNamespace } from './edgeTypeNamespaces.ts';
import { fnv1a32 } from './fnv1a32.ts';

/**
 * Where the rows of a split partition live (docs/architecture.md §6). A split
 * of partition `id` of namespace `ns` is stored in namespace `ns_split` (same
 * two-level-map schema) under partitions `id#<bucket>`, the bucket being
 * `<generation>.<index>`: a re-run after a failure writes a new generation and
 * never reads rows an earlier attempt left behind.
 *
 * Strategies, chosen per namespace:
 * - `hash` for the link namespaces (`T_out`, `T_in`, keyed by peer): bucket =
 *   fnv1a32(key) mod n. Balanced whatever the peer ids look like, and the
 *   point read of one link (`edge`, the fan-out's own reads, the newest-page
 *   validation) touches one bucket; an ordered page merges n buckets.
 * - `range` for the newest-first indexes (`T_*_recent`, keyed by inverted
 *   time): n key ranges with boundaries cut at equal row counts by the
 *   planner, so the newest page (the common read) reads bucket 0 only; a new
 *   follow sorts before every boundary and lands in bucket 0 too.
 */
export type SplitStrategy = 'hash' | 'range';

export type SplitLayout =
  | { readonly strategy: 'hash'; readonly buckets: number }
  /** `boundaries[i]` is the smallest key of bucket i + 1; buckets = boundaries.length + 1. */
  | { readonly strategy: 'range'; readonly boundaries: readonly Uint8Array[] };

/** One split of one partition: where its rows go. */
export interface SplitTarget {
  /** The split table (`<namespace>_split`). */
  readonly splitNamespace: string;
  readonly partitionId: string;
  readonly generation: number;
  readonly layout: SplitLayout;
}

export const SPLIT_NAMESPACE_SUFFIX = '_split';

/** The split table of namespace `ns` (≤ 47 characters for the longest edge-type namespace). */
export const splitNamespace = (ns: string): string => `${ns}${SPLIT_NAMESPACE_SUFFIX}`;

/** The partition id of one bucket of a split. */
export const splitBucketId = (partitionId: string, generation: number, bucket: number): string => `${partitionId}#${generation}.${bucket}`;

export function bucketCount(layout: SplitLayout): number {
  return layout.strategy === 'hash' ? layout.buckets : layout.boundaries.length + 1;
}

/** The bucket a key belongs to. */
export function bucketOfKey(layout: SplitLayout, key: Uint8Array): number {
  if (layout.strategy === 'hash') return fnv1a32(key) % layout.buckets;
  // Boundaries are few (≤ maxBuckets - 1): a linear scan is as fast as a binary search here.
  let bucket = 0;
  while (bucket < layout.boundaries.length && compareBytes(key, layout.boundaries[bucket] as Uint8Array) >= 0) bucket++;
  return bucket;
}

/** The namespaces that may be split, with their strategy; property bags and globals never are. */
export function splittableNamespaces(edgeTypes: readonly { readonly name: string }[]): ReadonlyMap<string, SplitStrategy> {
  const out = new Map<string, SplitStrategy>();
  for (const { name } of edgeTypes) {
    out.set(forwardLinkNamespace(name), 'hash');
    out.set(reverseLinkNamespace(name), 'hash');
    out.set(forwardRecentNamespace(name), 'range');
    out.set(reverseRecentNamespace(name), 'range');
  }
  return out;
}
