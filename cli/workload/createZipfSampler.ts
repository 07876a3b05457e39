/**
 * Samples ranks 0..n-1 with P(rank k) ∝ 1/(k+1)^s: rank 0 is the biggest celebrity.
 * Precomputes the CDF once (n floats) and samples by binary search.
 */
export function createZipfSampler(n: number, s: number, random: () => number): () => number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`zipf: n must be a positive integer, got ${n}`);
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) {
    sum += 1 / Math.pow(k + 1, s);
    cdf[k] = sum;
  }
  return () => {
    const u = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cdf[mid] ?? sum) < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}
