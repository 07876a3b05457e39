/** Small statistics helpers for the bench (no dependencies). */

/** The median of `xs` (mean of the two middle values for an even count); NaN when empty. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** The q-quantile (0..1) by the nearest-rank method; NaN when empty. */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const rank = Math.min(s.length, Math.max(1, Math.ceil(q * s.length)));
  return s[rank - 1] as number;
}

/**
 * The largest of `xs` (-Infinity for none, as Math.max()). A loop, not Math.max(...xs): spreading
 * a block's latencies as arguments (~300 000 of one op at 10 000 ops/s) overflows the stack.
 */
export function maxOf(xs: readonly number[]): number {
  let max = Number.NEGATIVE_INFINITY;
  for (const x of xs) if (x > max) max = x;
  return max;
}

export const round = (x: number, digits = 0): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/** `12345.6` → `12,346`. */
export const fmt = (x: number, digits = 0): string =>
  Number.isFinite(x) ? x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : String(x);

export const mib = (bytes: number | undefined): number => (bytes === undefined ? Number.NaN : round(bytes / (1024 * 1024), 1));

/** One figure over the repeats of a bench: every repeat's value, their median, and the spread (max − min, also as % of the median). */
export function acrossRepeats(xs: readonly number[], digits = 2) {
  const min = Math.min(...xs);
  const max = Math.max(...xs);
  const mid = median(xs);
  return { repeats: xs.map((x) => round(x, digits)), median: round(mid, digits), min: round(min, digits), max: round(max, digits), spreadPct: mid !== 0 ? round((100 * (max - min)) / Math.abs(mid), 1) : Number.NaN };
}

export type AcrossRepeats = ReturnType<typeof acrossRepeats>;

/** p50/p90/p99/max/mean of latencies in ms (nearest rank). */
export function latencySummary(ms: readonly number[]) {
  return {
    samples: ms.length,
    p50Ms: round(quantile(ms, 0.5), 2),
    p90Ms: round(quantile(ms, 0.9), 2),
    p99Ms: round(quantile(ms, 0.99), 2),
    maxMs: round(maxOf(ms), 2),
    meanMs: round(ms.reduce((a, b) => a + b, 0) / Math.max(1, ms.length), 2),
  };
}

export type LatencySummary = ReturnType<typeof latencySummary>;

/** a ÷ b of the same repeat, for every repeat both measured (keyed by repeat number), across repeats. */
export function pairedRatios(a: ReadonlyMap<number, number>, b: ReadonlyMap<number, number>, digits = 3): AcrossRepeats {
  const ratios = [...a.keys()].sort((x, y) => x - y).flatMap((r) => {
    const d = b.get(r);
    return d === undefined || d === 0 ? [] : [(a.get(r) as number) / d];
  });
  return acrossRepeats(ratios, digits);
}
