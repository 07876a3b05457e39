import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { degreeOf, linkAt, linkWorkload, newestPage, sampleSources, timeOffset, timeStride } from './hotWorkload.ts';

describe('the hot-source workload', () => {
  it('gives every link a distinct edge time in [0, links), for any size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5_000 }), (links) => {
        const w = linkWorkload({ links, prefix: 'p', baseTime: 0n });
        const stride = timeStride(links);
        const seen = new Set(Array.from({ length: links }, (_, i) => timeOffset(w, i, stride)));
        return seen.size === links && Math.min(...seen) === 0 && Math.max(...seen) === links - 1;
      }),
    );
  });

  it('puts every link of the hot variant on one source, each to its own destination', () => {
    const w = linkWorkload({ links: 1_000, prefix: 'r1-hot-', baseTime: 10n });
    const links = Array.from({ length: 1_000 }, (_, i) => linkAt(w, i));
    expect(new Set(links.map((l) => l.src))).toEqual(new Set(['r1-hot-s0']));
    expect(new Set(links.map((l) => l.dst)).size).toBe(1_000);
    expect(degreeOf(w, 0)).toBe(1_000);
  });

  it('spreads the same links over links / fanout-degree sources whose degrees add up to the links', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3_000 }), fc.integer({ min: 1, max: 50 }), (links, fanout) => {
        const w = linkWorkload({ links, fanoutDegree: fanout, prefix: 'x', baseTime: 0n });
        const perSource = new Map<string, number>();
        for (let i = 0; i < links; i++) perSource.set(linkAt(w, i).src, (perSource.get(linkAt(w, i).src) ?? 0) + 1);
        const degrees = Array.from({ length: w.sources }, (_, s) => degreeOf(w, s));
        return w.sources === Math.ceil(links / fanout) && degrees.every((d, s) => d === (perSource.get(`xs${s}`) ?? 0)) && degrees.reduce((a, b) => a + b, 0) === links;
      }),
    );
  });

  it("a source's newest page is its links with the largest edge times, newest first", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_000 }), fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 60 }), (links, fanout, limit) => {
        const w = linkWorkload({ links, fanoutDegree: fanout, prefix: 'y', baseTime: 5n });
        const s = sampleSources(w, 3).at(-1) as number;
        const all = Array.from({ length: links }, (_, i) => linkAt(w, i)).filter((l) => l.src === `ys${s}`);
        const expected = all.sort((a, b) => (a.time < b.time ? 1 : -1)).slice(0, limit).map((l) => ({ dst: l.dst, time: l.time }));
        expect(newestPage(w, s, limit)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it('samples distinct sources spread over the range', () => {
    const w = linkWorkload({ links: 1_000, fanoutDegree: 10, prefix: 'z', baseTime: 0n });
    expect(sampleSources(w, 4)).toEqual([0, 25, 50, 75]);
    expect(sampleSources(linkWorkload({ links: 5, prefix: 'z', baseTime: 0n }), 4)).toEqual([0]);
  });
});
