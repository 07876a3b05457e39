import { describe, expect, it } from 'vitest';
import { backoffMs, startRetrySchedule } from './backoff.ts';
import { createTestClock } from '../testing/testClock.ts';

describe('backoffMs', () => {
  it.each([
    [1, 1_000],
    [2, 2_000],
    [3, 4_000],
    [6, 32_000],
    [7, 60_000],
    [100, 60_000],
  ])('attempt %i waits %i ms with 1 s initial and a 60 s cap', (attempt, expected) => {
    expect(backoffMs(attempt, 1_000, 60_000)).toBe(expected);
  });

  it('rejects attempts below 1 (a programmer error)', () => {
    expect(() => backoffMs(0, 1, 1)).toThrow(RangeError);
  });
});

describe('startRetrySchedule', () => {
  it('doubles the back-off and stops before it would overrun the budget', async () => {
    const clock = createTestClock();
    const schedule = startRetrySchedule({ budgetMs: 1_000, initialBackoffMs: 100, maxBackoffMs: 10_000 }, clock);
    const waits: boolean[] = [];
    for (let i = 0; i < 5; i++) waits.push(await schedule.wait());
    expect(waits).toEqual([true, true, true, false, false]); // 100 + 200 + 400 = 700; +800 would pass 1000
    expect(clock.slept).toBe(700);
    expect(schedule.attempts).toBe(3);
  });

  it('never waits with a zero budget', async () => {
    const schedule = startRetrySchedule({ budgetMs: 0, initialBackoffMs: 1, maxBackoffMs: 1 }, createTestClock());
    expect(await schedule.wait()).toBe(false);
  });

  it('heartbeats while it sleeps, at least once a second', async () => {
    let beats = 0;
    const schedule = startRetrySchedule({ budgetMs: 10_000, initialBackoffMs: 3_500, maxBackoffMs: 3_500 }, createTestClock(), async () => {
      beats++;
    });
    await schedule.wait();
    expect(beats).toBe(4);
  });
});
