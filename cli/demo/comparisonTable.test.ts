import { describe, expect, it } from 'vitest';
import { comparisonTable, compareReads, latencyConclusion } from './comparisonTable.ts';

// Three repeats in which A and B take turns being slower (the machine, not the split).
const same = [
  { a: [10, 11, 12, 30], b: [10, 12, 11, 31] },
  { a: [11, 12, 13, 35], b: [10, 11, 12, 29] },
  { a: [10, 11, 12, 33], b: [11, 12, 13, 34] },
];
// B clearly faster in every repeat, beyond the spread.
const split = [
  { a: [30, 31, 29, 80], b: [10, 11, 9, 40] },
  { a: [32, 33, 31, 90], b: [11, 12, 10, 45] },
  { a: [29, 30, 28, 85], b: [10, 10, 9, 42] },
];
const scans = [{ a: [5_000], b: [5_100] }, { a: [5_200], b: [4_900] }, { a: [5_050], b: [5_000] }];

describe('latencyConclusion', () => {
  it('says plainly when latency does not change', () => {
    const c = compareReads({ pages: same, scans, scanned: { a: 30_000, b: 30_000 } });
    expect(latencyConclusion(c)).toMatch(/^No measurable latency change at this size/);
    expect(comparisonTable(c, { a: 30_000, b: 30_000 }).join('\n')).toMatch(/page p50 \(ms\)\s+12\.0 \(11\.0–12\.0\)\s+12\.0 \(11\.0–12\.0\)\s+no measurable change \(split faster in 1 of 3 repeats\)$/m);
  });

  it('names a change only for the figures whose repeats all agree', () => {
    const c = compareReads({ pages: split, scans, scanned: { a: 30_000, b: 30_000 } });
    const text = latencyConclusion(c);
    expect(text).toContain('page p50: split 68 % faster');
    expect(text).toContain('full scan: no measurable change (split faster in 2 of 3 repeats)');
  });

  it('flags a disagreement in the followers read', () => {
    const c = compareReads({ pages: same, scans: [{ a: [1], b: [1] }, { a: [1], b: [1] }, { a: [1], b: [1] }], scanned: { a: 3, b: 2 } });
    expect(comparisonTable(c, { a: 3, b: 2 }).at(-1)).toMatch(/DIFFERENT$/);
  });
});
