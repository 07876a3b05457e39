import { describe, expect, it } from 'vitest';
import { mapBounded, mapBoundedOrThrow } from './mapBounded.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('mapBounded', () => {
  it('never runs more than `concurrency` calls at once and keeps results in input order', async () => {
    let running = 0;
    let peak = 0;
    const results = await mapBoundedOrThrow([5, 4, 3, 2, 1, 0], 2, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await tick();
      running--;
      return n * 10;
    });
    expect(peak).toBe(2);
    expect(results).toEqual([50, 40, 30, 20, 10, 0]);
  });

  it('settles every call before reporting a failure', async () => {
    const finished: number[] = [];
    const settled = await mapBounded([0, 1, 2, 3], 4, async (n) => {
      await tick();
      if (n === 1) throw new Error('boom');
      finished.push(n);
      return n;
    });
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(finished.sort()).toEqual([0, 2, 3]);
  });

  it('rejects with the first failure by index once all have settled', async () => {
    let done = 0;
    const run = mapBoundedOrThrow([0, 1, 2], 3, async (n) => {
      await tick();
      done++;
      if (n > 0) throw new Error(`fail ${n}`);
    });
    await expect(run).rejects.toThrow('fail 1');
    expect(done).toBe(3);
  });
});
