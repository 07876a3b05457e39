import { describe, expect, it } from 'vitest';
import { createBackgroundBudget, type BackgroundBudget } from './backgroundBudget.ts';
import { createTestClock } from '../testing/testClock.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A budget whose canary takes `latencies.shift()` ms of the test clock (and fails on NaN). */
function budgetWith(latencies: number[], o: { min?: number; max?: number } = {}) {
  const clock = createTestClock({ autoAdvance: false });
  const budget = createBackgroundBudget({
    minConcurrency: o.min ?? 1,
    maxConcurrency: o.max ?? 8,
    maxCanaryLatencyMs: 10,
    probeIntervalMs: 100,
    clock,
    probe: async () => {
      const ms = latencies.shift() ?? 1;
      if (Number.isNaN(ms)) throw new Error('canary timed out');
      await clock.advance(ms);
    },
  });
  /** Lets the loop probe once more (it sleeps `probeIntervalMs` between probes). */
  const nextProbe = async () => {
    await clock.advance(100);
    await tick();
  };
  return { budget, clock, nextProbe };
}

/** Starts `n` calls that finish only when released; reports how many ran at once. */
function blockedCalls(budget: BackgroundBudget, n: number) {
  let running = 0;
  let peak = 0;
  const releases: (() => void)[] = [];
  const order: number[] = [];
  const done = Array.from({ length: n }, (_, i) =>
    budget.run(async () => {
      running++;
      peak = Math.max(peak, running);
      order.push(i);
      await new Promise<void>((resolve) => releases.push(resolve));
      running--;
    }),
  );
  return { done, releases, order, peak: () => peak, running: () => running };
}

describe('createBackgroundBudget', () => {
  it('lets at most the limit of calls run at once and admits the others in arrival order', async () => {
    const { budget } = budgetWith([], { max: 3 });
    const calls = blockedCalls(budget, 7);
    await tick();
    expect(calls.running()).toBe(3);
    expect(budget.stats()).toMatchObject({ limit: 3, inFlight: 3, queued: 4 });
    while (calls.releases.length > 0) {
      (calls.releases.shift() as () => void)();
      await tick();
      await tick();
    }
    await Promise.all(calls.done);
    expect(calls.peak()).toBe(3);
    expect(calls.order).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(budget.stats()).toMatchObject({ inFlight: 0, queued: 0 });
  });

  it('halves the limit while the canary is slow, never below the minimum, and grows it by one per fast canary', async () => {
    const { budget, nextProbe } = budgetWith([50, 50, 50, 50, 2, 2, 2], { min: 2, max: 16 });
    budget.start();
    await tick();
    expect(budget.stats()).toMatchObject({ limit: 8, canaryMs: 50, congestedProbes: 1 });
    await nextProbe();
    expect(budget.stats().limit).toBe(4);
    await nextProbe();
    expect(budget.stats().limit).toBe(2);
    await nextProbe();
    expect(budget.stats().limit).toBe(2);
    await nextProbe();
    expect(budget.stats()).toMatchObject({ limit: 3, canaryMs: 2, congestedProbes: 4, probes: 5 });
    await nextProbe();
    expect(budget.stats().limit).toBe(4);
    budget.stop();
  });

  it('counts a failed canary as congestion', async () => {
    const { budget } = budgetWith([Number.NaN], { max: 8 });
    budget.start();
    await tick();
    expect(budget.stats()).toMatchObject({ limit: 4, congestedProbes: 1 });
    budget.stop();
  });

  it('admits queued calls as soon as a fast canary raises the limit', async () => {
    const { budget, nextProbe } = budgetWith([50, 50, 50, 1], { min: 1, max: 8 });
    budget.start();
    await tick();
    await nextProbe();
    await nextProbe();
    expect(budget.stats().limit).toBe(1);
    const calls = blockedCalls(budget, 3);
    await tick();
    expect(calls.running()).toBe(1);
    await nextProbe();
    expect(budget.stats().limit).toBe(2);
    expect(calls.running()).toBe(2);
    budget.stop();
    calls.releases.forEach((release) => release());
    await tick();
    calls.releases.forEach((release) => release());
    await Promise.all(calls.done);
  });

  it('rejects a minimum above the maximum', () => {
    expect(() => createBackgroundBudget({ minConcurrency: 4, maxConcurrency: 2, maxCanaryLatencyMs: 10, probeIntervalMs: 100, clock: createTestClock(), probe: async () => undefined })).toThrow(/minConcurrency \(4\) <= maxConcurrency \(2\)/);
  });
});
