/** A seeded 32-bit hash of (i, seed), uniform: a murmur3-style finalizer. */
export function mix32(i: number, seed: number): number {
  let h = Math.imul(i ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(seed + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The id of the i-th vertex a bench creates, `<prefix>-<8 hex of mix32(i)>-<i>`:
 * distinct for distinct i, and in key order unrelated to i. Ids numbered in
 * creation order would put a vertex's newest neighbours side by side in its
 * link partition, where a validation read of them touches one block instead of
 * one per neighbour — a workload no real graph produces.
 */
export function scrambledId(prefix: string, i: number, seed: number): string {
  return `${prefix}-${mix32(i, seed).toString(16).padStart(8, '0')}-${i}`;
}
