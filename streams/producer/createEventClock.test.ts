import { describe, expect, it } from 'vitest';
import { createEventClock } from './createEventClock.ts';

describe('createEventClock', () => {
  it('never hands out the same time twice, even when the wall clock stands still', () => {
    const next = createEventClock({ nowMicros: () => 1_000n });
    expect([next(), next(), next()]).toEqual([1_000n, 1_001n, 1_002n]);
  });

  it('never goes backwards when the wall clock does, and follows it again once it is ahead', () => {
    const times = [5_000n, 4_000n, 4_500n, 9_000n];
    const next = createEventClock({ nowMicros: () => times.shift() as bigint });
    expect([next(), next(), next(), next()]).toEqual([5_000n, 5_001n, 5_002n, 9_000n]);
  });
});
