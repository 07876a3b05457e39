import { describe, expect, it } from 'vitest';
import { sampleRanks } from './countSettle.ts';

describe('sampleRanks', () => {
  it('takes the 10 most linked vertices and distinct others, the same for the same seed', () => {
    const ranks = sampleRanks(100_000, 1_000, 1);
    expect(ranks).toHaveLength(1_000);
    expect(new Set(ranks).size).toBe(1_000);
    expect(ranks.slice(0, 10)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(ranks.every((r) => r >= 0 && r < 100_000)).toBe(true);
    expect(sampleRanks(100_000, 1_000, 1)).toEqual(ranks);
    expect(sampleRanks(100_000, 1_000, 2)).not.toEqual(ranks);
  });

  it('takes every vertex of a graph smaller than the sample', () => {
    expect(sampleRanks(7, 1_000, 1).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
