/**
 * The demo's before/after verdict (issue 13). A and B are measured in the same
 * window, alternating sample by sample, in several repeats; a difference is
 * claimed only when it survives the repeats: every repeat moves the same way
 * AND the ranges of A's and B's per-repeat figures do not overlap. Anything
 * else is "no measurable change" — the spread across repeats is as large as
 * the effect.
 */
export type Verdict = 'faster' | 'slower' | 'no measurable change' | 'too few repeats';

/** Fewer repeats than this cannot tell an effect from noise (two agree by chance half the time). */
export const MIN_REPEATS = 3;

export interface Range {
  readonly min: number;
  readonly max: number;
}

export interface PairedFigure {
  /** A's and B's figure over all samples pooled. */
  readonly a: number;
  readonly b: number;
  /** The figure of each repeat, as a range: the spread a reader should judge the difference by. */
  readonly aRepeats: Range;
  readonly bRepeats: Range;
  /** B's figure relative to A's, pooled (0.8 = B takes 80 % of A's time). */
  readonly ratio: number;
  /** Repeats in which B's figure was below A's, out of `repeats`. */
  readonly bFasterIn: number;
  readonly repeats: number;
  /** How B compares with A (lower is faster: the figures are times). */
  readonly verdict: Verdict;
}

/** One repeat: A's and B's samples (ms), taken alternately in the same window. */
export interface PairedRepeat {
  readonly a: readonly number[];
  readonly b: readonly number[];
}

/** The q-quantile (0..1) by the nearest-rank method. */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) throw new RangeError('quantile of no samples');
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length, Math.max(1, Math.ceil(q * s.length))) - 1] as number;
}

const rangeOf = (xs: readonly number[]): Range => ({ min: Math.min(...xs), max: Math.max(...xs) });

/** Verdict on per-repeat figures `a[i]`, `b[i]` (paired by repeat). */
export function judgeRepeats(a: readonly number[], b: readonly number[]): Verdict {
  if (a.length !== b.length) throw new RangeError(`paired repeats differ in number: ${a.length} and ${b.length}`);
  if (a.length < MIN_REPEATS) return 'too few repeats';
  const diffs = a.map((x, i) => (b[i] as number) - x);
  const ra = rangeOf(a);
  const rb = rangeOf(b);
  if (diffs.every((d) => d < 0) && rb.max < ra.min) return 'faster';
  if (diffs.every((d) => d > 0) && rb.min > ra.max) return 'slower';
  return 'no measurable change';
}

/** Compares the `q`-quantile of A and B: pooled, per repeat, and the verdict. */
export function comparePaired(repeats: readonly PairedRepeat[], q: number): PairedFigure {
  if (repeats.length === 0) throw new RangeError('no repeats to compare');
  const aPer = repeats.map((r) => quantile(r.a, q));
  const bPer = repeats.map((r) => quantile(r.b, q));
  const a = quantile(repeats.flatMap((r) => r.a), q);
  const b = quantile(repeats.flatMap((r) => r.b), q);
  const bFasterIn = bPer.filter((x, i) => x < (aPer[i] as number)).length;
  return { a, b, aRepeats: rangeOf(aPer), bRepeats: rangeOf(bPer), ratio: b / a, bFasterIn, repeats: repeats.length, verdict: judgeRepeats(aPer, bPer) };
}
