import { describe, expect, it } from 'vitest';
import { RECOUNT_MARKS_PER_ROUND as FULL, recountSettledAt } from './recountSettle.ts';

describe('recountSettledAt', () => {
  it('is the first round after the burst that took less than a full round, the empty round after a backlog included', () => {
    const rounds = [{ atMs: 50, marks: 3 }, { atMs: 110, marks: FULL }, { atMs: 120, marks: 7 }, { atMs: 130, marks: 1 }];
    expect(recountSettledAt(rounds, 100, 125, 60_000)).toBe(120);
    const whole = [...Array.from({ length: 40 }, (_, i) => ({ atMs: 100 + i * 10, marks: FULL }))];
    expect(recountSettledAt(whole, 100, 10_000, 50)).toBeUndefined(); // 40 full rounds, however long ago: the empty one is still to come
    expect(recountSettledAt([...whole, { atMs: 500, marks: 0 }], 100, 510, 50)).toBe(500);
  });

  it('with no round since the burst, is its end only when the recounter had already caught up and has been quiet', () => {
    expect(recountSettledAt([{ atMs: 50, marks: 4 }], 100, 140, 50)).toBeUndefined();
    expect(recountSettledAt([{ atMs: 50, marks: 4 }], 100, 151, 50)).toBe(100);
    expect(recountSettledAt([{ atMs: 50, marks: FULL }], 100, 10_000, 50)).toBeUndefined();
    expect(recountSettledAt([], 100, 10_000, 50)).toBeUndefined(); // a first round still running
  });
});
