import type { Clock } from '../Clock.ts';

export interface TestClock extends Clock {
  /** Moves time forward, resolving sleeps that come due. */
  advance(ms: number): Promise<void>;
  /** Total ms slept through `sleep` (auto-advancing clocks). */
  readonly slept: number;
}

/**
 * A clock for unit tests. With `autoAdvance` (default) `sleep` moves time
 * forward at once, so back-off loops run instantly but still see time pass;
 * without it, sleeps resolve only when the test calls `advance`.
 */
export function createTestClock({ startMs = 1_700_000_000_000, autoAdvance = true }: { startMs?: number; autoAdvance?: boolean } = {}): TestClock {
  let now = startMs;
  let slept = 0;
  const sleepers: { at: number; resolve: () => void }[] = [];
  const clock: TestClock = {
    nowMs: () => now,
    nowMicros: () => BigInt(now) * 1000n,
    get slept() {
      return slept;
    },
    async sleep(ms) {
      if (autoAdvance) {
        now += Math.max(0, ms);
        slept += Math.max(0, ms);
        return;
      }
      await new Promise<void>((resolve) => sleepers.push({ at: now + Math.max(0, ms), resolve }));
    },
    async advance(ms) {
      now += ms;
      for (const s of sleepers.filter((x) => x.at <= now)) {
        sleepers.splice(sleepers.indexOf(s), 1);
        s.resolve();
      }
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
  return clock;
}
