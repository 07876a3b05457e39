import { bucketCount, bucketOfKey, splitBucketId, type SplitTarget } from '../namespaces/index.ts';
import type { KeyValue, Mutation } from '../store/index.ts';

/**
 * The same mutation, re-aimed at the split layout (the write path's mirror,
 * sinks/wide): each key goes to its bucket, a partition clear to every bucket.
 */
export function mirrorMutation(target: SplitTarget, mutation: Mutation): Mutation[] {
  const buckets = bucketCount(target.layout);
  const byBucket = new Map<number, { deletions: Uint8Array[]; additions: KeyValue[] }>();
  const slot = (b: number) => {
    let s = byBucket.get(b);
    if (s === undefined) byBucket.set(b, (s = { deletions: [], additions: [] }));
    return s;
  };
  if (mutation.clear) for (let b = 0; b < buckets; b++) slot(b);
  for (const key of mutation.deletions) slot(bucketOfKey(target.layout, key)).deletions.push(key);
  for (const kv of mutation.additions) slot(bucketOfKey(target.layout, kv.key)).additions.push(kv);
  return [...byBucket].map(([b, s]) => ({
    namespace: target.splitNamespace,
    id: splitBucketId(target.partitionId, target.generation, b),
    writeTime: mutation.writeTime,
    ...(mutation.clear ? { clear: true, ...(mutation.clearPrefix === undefined ? {} : { clearPrefix: mutation.clearPrefix }) } : {}),
    deletions: s.deletions,
    additions: s.additions,
  }));
}
