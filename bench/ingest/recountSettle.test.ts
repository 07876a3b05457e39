import { describe, expect, it } from 'vitest';
import { RECOUNT_MARKS_PER_ROUND as FULL, recountSettledAt } from './recountSettle.ts';

describe('recountSettledAt', () => {
  it('is the first round after the burst that took less than a full round', () => {
    const rounds = [{ atMs: 50, marks: 3 }, { atMs: 110, marks: FULL }, { atMs: 120, marks: 7 }, { atMs: 130, marks: 1 }];
    expect(recountSettledAt(rounds, 100, 125, 60_000)).toBe(120);
  });

  it('is the last full round once the recounter has been quiet since: the backlog was a whole number of rounds', () => {
    const rounds = Array.from({ length: 40 }, (_, i) => ({ atMs: 100 + i * 10, marks: FULL }));
    expect(recountSettledAt(rounds, 100, 500, 50)).toBeUndefined(); // still within the quiet window
    expect(recountSettledAt(rounds, 100, 600, 50)).toBe(490);
  });

  it('is the end of the burst when no round took marks after it', () => {
    expect(recountSettledAt([{ atMs: 50, marks: FULL }], 100, 140, 50)).toBeUndefined();
    expect(recountSettledAt([{ atMs: 50, marks: FULL }], 100, 151, 50)).toBe(100);
  });
});
