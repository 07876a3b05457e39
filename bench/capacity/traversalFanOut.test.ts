import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distinctGroups, traversalFanOut } from './traversalFanOut.ts';

describe('distinctGroups', () => {
  it('is 1 on one group and at most min(ids, groups)', () => {
    expect(distinctGroups(500, 1)).toBe(1);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 1e6 }), (ids, groups) => {
        const d = distinctGroups(ids, groups);
        expect(d).toBeLessThanOrEqual(Math.min(ids, groups) * (1 + 1e-9));
        expect(d).toBeGreaterThanOrEqual(Math.min(1, ids) - 1e-9);
      }),
    );
  });
});

describe('traversalFanOut', () => {
  const hops = (replicaGroups: number, reachedDegree = 500) => traversalFanOut({ hops: 2, perHopCap: 1_000, startDegree: reachedDegree, reachedDegree, replicaGroups });

  it('on one node reads a frontier in batches of 64 ids, the first wave of two at least', () => {
    const [first, second] = hops(1);
    expect(first).toMatchObject({ frontier: 1, idsRead: 1, queries: 1, rows: 500 });
    // 500 ids → 8 even batches of 62.5; two go before any answers, and they fill the cap.
    expect(second!.frontier).toBe(500);
    expect(second!.queries).toBe(2);
    expect(second!.idsRead).toBeCloseTo(125, 6);
  });

  it('on many replica groups sends about one query per id it needs', () => {
    const second = hops(16_000)[1]!;
    expect(second.idsRead).toBe(8); // ceil(1 000 / 128 first-page links)
    expect(second.queries).toBe(8);
  });

  it('never sends fewer queries as the replica groups grow', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e5 }), fc.integer({ min: 1, max: 1e5 }), fc.double({ min: 1, max: 1e5, noNaN: true }), (g, more, degree) => {
        const a = hops(g, degree);
        const b = hops(g + more, degree);
        a.forEach((h, i) => expect(b[i]!.queries).toBeGreaterThanOrEqual(h.queries));
      }),
    );
  });
});
