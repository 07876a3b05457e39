import { comparePaired, type PairedFigure } from './comparePaired.ts';
import type { PairedReads } from './measurePaired.ts';

export interface Comparison {
  readonly pageP50: PairedFigure;
  readonly pageP99: PairedFigure;
  readonly scan: PairedFigure;
}

export const compareReads = (r: PairedReads): Comparison => ({
  pageP50: comparePaired(r.pages, 0.5),
  pageP99: comparePaired(r.pages, 0.99),
  scan: comparePaired(r.scans, 0.5),
});

const num = (ms: number) => (ms >= 1_000 ? Math.round(ms).toLocaleString('en-US') : ms.toFixed(1));
const cell = (pooled: number, range: { min: number; max: number }) => `${num(pooled)} (${num(range.min)}–${num(range.max)})`;
const verdictText = (f: PairedFigure) =>
  f.verdict === 'faster' ? `split ${Math.round((1 - f.ratio) * 100)} % faster`
  : f.verdict === 'slower' ? `split ${Math.round((f.ratio - 1) * 100)} % slower`
  : f.verdict === 'no measurable change' ? `${f.verdict} (split faster in ${f.bFasterIn} of ${f.repeats} repeats)`
  : f.verdict;

/**
 * The closing table: each figure pooled over all samples, its range across
 * repeats in brackets, and the verdict of `judgeRepeats`.
 */
export function comparisonTable(c: Comparison, scanned: { a: number; b: number }): string[] {
  const rows: [string, string, string, string][] = [
    ['', 'before: original', 'after: split', 'paired verdict'],
    ['page p50 (ms)', cell(c.pageP50.a, c.pageP50.aRepeats), cell(c.pageP50.b, c.pageP50.bRepeats), verdictText(c.pageP50)],
    ['page p99 (ms)', cell(c.pageP99.a, c.pageP99.aRepeats), cell(c.pageP99.b, c.pageP99.bRepeats), verdictText(c.pageP99)],
    ['full scan (ms)', cell(c.scan.a, c.scan.aRepeats), cell(c.scan.b, c.scan.bRepeats), verdictText(c.scan)],
    ['followers read', scanned.a.toLocaleString('en-US'), scanned.b.toLocaleString('en-US'), scanned.a === scanned.b ? 'identical' : 'DIFFERENT'],
  ];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]?.length ?? 0)));
  return rows.map((r) => `   ${r.map((s, i) => (i < 3 ? s.padEnd((widths[i] as number) + 3) : s)).join('')}`.trimEnd());
}

/** One sentence on latency a reader can quote. */
export function latencyConclusion(c: Comparison): string {
  const figures = [c.pageP50, c.pageP99, c.scan];
  if (figures.every((f) => f.verdict === 'no measurable change')) {
    return 'No measurable latency change at this size: the difference between the original and the split is within the spread of repeats, for pages and for full scans.';
  }
  if (figures.some((f) => f.verdict === 'too few repeats')) return 'Too few repeats to tell a latency change from noise.';
  const named = (f: PairedFigure, what: string) => `${what}: ${verdictText(f)}`;
  return `Latency, where every repeat agrees and the ranges do not overlap — ${named(c.pageP50, 'page p50')}; ${named(c.pageP99, 'page p99')}; ${named(c.scan, 'full scan')}.`;
}
