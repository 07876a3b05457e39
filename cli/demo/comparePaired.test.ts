import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparePaired, judgeRepeats, quantile } from './comparePaired.ts';

describe('judgeRepeats', () => {
  it('claims a change only when every repeat agrees and the ranges do not overlap', () => {
    expect(judgeRepeats([30, 32, 31], [10, 11, 12])).toBe('faster');
    expect(judgeRepeats([10, 11, 12], [30, 32, 31])).toBe('slower');
    // Every repeat a little faster, but the spread across repeats is larger than the effect.
    expect(judgeRepeats([10, 14, 12], [9.5, 13.5, 11.5])).toBe('no measurable change');
    // One repeat went the other way.
    expect(judgeRepeats([10, 20, 15], [12, 8, 14])).toBe('no measurable change');
  });

  it('refuses to judge two repeats or unpaired figures', () => {
    expect(judgeRepeats([30, 31], [10, 11])).toBe('too few repeats');
    expect(() => judgeRepeats([1, 2, 3], [1, 2])).toThrow(/differ in number/);
  });

  it('never claims a change when A and B are the same figures reordered', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.1, max: 1_000, noNaN: true }), { minLength: 3, maxLength: 12 }), fc.nat(), (xs, seed) => {
        const shuffled = [...xs].sort((x, y) => ((x * 7919 + seed) % 13) - ((y * 7919 + seed) % 13));
        expect(judgeRepeats(xs, shuffled)).toBe('no measurable change');
      }),
    );
  });

  it('is antisymmetric: swapping A and B swaps faster and slower', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: 0.1, max: 1_000, noNaN: true }), fc.double({ min: 0.1, max: 1_000, noNaN: true })), { minLength: 3, maxLength: 12 }), (pairs) => {
        const a = pairs.map(([x]) => x);
        const b = pairs.map(([, y]) => y);
        const flip = { faster: 'slower', slower: 'faster' } as Record<string, string>;
        const v = judgeRepeats(a, b);
        expect(judgeRepeats(b, a)).toBe(flip[v] ?? v);
      }),
    );
  });
});

describe('comparePaired', () => {
  it('pools the samples for the headline figure and keeps the per-repeat spread', () => {
    const repeats = [
      { a: [30, 31, 29, 80], b: [10, 11, 9, 40] },
      { a: [33, 32, 34, 35], b: [12, 12, 13, 14] },
      { a: [28, 30, 29, 31], b: [10, 10, 11, 9] },
    ];
    const p50 = comparePaired(repeats, 0.5);
    expect(p50.a).toBe(31);
    expect(p50.b).toBe(11);
    expect(p50.aRepeats).toEqual({ min: 29, max: 33 });
    expect(p50.bRepeats).toEqual({ min: 10, max: 12 });
    expect(p50.verdict).toBe('faster');
    expect(p50.ratio).toBeCloseTo(11 / 31);
    expect([p50.bFasterIn, p50.repeats]).toEqual([3, 3]);
  });

  it('says "no measurable change" when the machine, not B, makes the difference', () => {
    // The issue-13 trap: B happens to be measured in a quieter repeat than A once, but pairing exposes it.
    const repeats = [
      { a: [32, 33], b: [31, 34] },
      { a: [10, 11], b: [10, 12] },
      { a: [20, 21], b: [19, 22] },
    ];
    expect(comparePaired(repeats, 0.5).verdict).toBe('no measurable change');
  });
});

describe('quantile', () => {
  it('is the nearest-rank quantile', () => {
    expect(quantile([5, 1, 4, 2, 3], 0.5)).toBe(3);
    expect(quantile([5, 1, 4, 2, 3], 0.99)).toBe(5);
    expect(quantile([7], 0.01)).toBe(7);
    expect(() => quantile([], 0.5)).toThrow(/no samples/);
  });
});
