import { describe, expect, it } from 'vitest';
import { acrossRepeats, latencySummary, pairedRatios } from './stats.ts';

describe('pairedRatios', () => {
  it('divides the figures of the same repeat, in repeat order, and reports every one with median and range', () => {
    const r = pairedRatios(new Map([[3, 300], [1, 100], [2, 150]]), new Map([[1, 200], [2, 200], [3, 400]]));
    expect(r.repeats).toEqual([0.5, 0.75, 0.75]);
    expect(r).toMatchObject({ median: 0.75, min: 0.5, max: 0.75, spreadPct: 33.3 });
  });

  it('leaves out a repeat the divisor did not measure or measured as 0', () => {
    expect(pairedRatios(new Map([[1, 10], [2, 10], [3, 10]]), new Map([[1, 20], [3, 0]])).repeats).toEqual([0.5]);
  });
});

describe('acrossRepeats', () => {
  it('gives every repeat, the median and (max − min) ÷ median', () => {
    expect(acrossRepeats([10, 30, 20], 0)).toEqual({ repeats: [10, 30, 20], median: 20, min: 10, max: 30, spreadPct: 100 });
  });
});

describe('latencySummary', () => {
  it('summarises a block of 600 000 samples (Math.max(...samples) overflowed the stack in bench:mixed\'s raw block)', () => {
    const ms = Array.from({ length: 600_000 }, (_, i) => (i * 7919) % 1000);
    ms[123_456] = 2_500;
    const s = latencySummary(ms);
    expect(s).toMatchObject({ samples: 600_000, maxMs: 2_500 });
  });
});
