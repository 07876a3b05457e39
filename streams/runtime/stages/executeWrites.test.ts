import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../sinks/memory/index.ts';
import { StoreError, type Mutation } from '../../../sinks/store/index.ts';
import { startRetrySchedule } from '../failures/backoff.ts';
import { executeWrites } from './executeWrites.ts';
import { PipelineError } from '../failures/PipelineError.ts';
import { faultyStore } from '../testing/faultyStore.ts';
import { createTestClock } from '../testing/testClock.ts';
import { TEST_NAMESPACES } from '../testing/testProcessor.ts';

const put = (namespace: string, id: string, key: number): Mutation => ({
  namespace,
  id,
  writeTime: 1n,
  deletions: [],
  additions: [{ key: Uint8Array.of(key), value: Uint8Array.of(1) }],
});

function setup() {
  const clock = createTestClock();
  const faulty = faultyStore(createMemoryStore({ namespaces: TEST_NAMESPACES }));
  const schedule = () => startRetrySchedule({ budgetMs: 1_000, initialBackoffMs: 100, maxBackoffMs: 400 }, clock);
  return { clock, ...faulty, schedule };
}

describe('executeWrites', () => {
  it('retries only the mutations a partial failure names, until they land', async () => {
    const s = setup();
    s.failWrites((m, call) => (m.namespace === 't_in' && call < 2 ? 'timeout' : undefined));
    const failures = await executeWrites(s.store, [put('t_out', 'a', 1), put('t_in', 'b', 1)], [0, 1], s.schedule());
    expect(failures.size).toBe(0);
    expect(s.calls.map((c) => c.map((m) => m.namespace))).toEqual([['t_out', 't_in'], ['t_in'], ['t_in']]);
    expect(s.clock.slept).toBe(300);
  });

  it('stops retrying when the budget is spent and reports the failures as repairable', async () => {
    const s = setup();
    s.failWrites((m) => (m.namespace === 't_in' ? 'unavailable' : undefined));
    const failures = await executeWrites(s.store, [put('t_out', 'a', 1), put('t_in', 'b', 1)], [0, 1], s.schedule());
    expect([...failures.keys()]).toEqual([1]);
    expect(failures.get(1)).toMatchObject({ decision: 'repair', error: { code: 'unavailable' } });
    expect(s.calls).toHaveLength(4); // 100 + 200 + 400 = 700 ms; another 400 would pass 1000
  });

  it('never retries a permanent failure', async () => {
    const s = setup();
    s.failWrites((m) => (m.namespace === 't_in' ? 'too_large' : undefined));
    const failures = await executeWrites(s.store, [put('t_out', 'a', 1), put('t_in', 'b', 1)], [0, 1], s.schedule());
    expect(failures.get(1)).toMatchObject({ decision: 'dead-letter' });
    expect(s.calls).toHaveLength(1);
    expect(s.clock.slept).toBe(0);
  });

  it.each([new TypeError('bug'), new RangeError('bug'), new StoreError('unknown_namespace', 'x'), new StoreError('closed', 'x')])(
    'throws FATAL without retrying for %s',
    async (error) => {
      const s = setup();
      s.failWholeCalls(() => error);
      const thrown = await executeWrites(s.store, [put('t_out', 'a', 1)], [0], s.schedule()).catch((e: unknown) => e);
      expect(PipelineError.is(thrown) && thrown.code).toBe('FATAL');
      expect(s.calls).toHaveLength(1);
    },
  );

  it('isolates a poison event when the store refuses a whole call, so the other events still land', async () => {
    const s = setup();
    const poison = put('t_out', 'p', 9);
    s.failWholeCalls((call) => (call === 0 || s.calls[call]?.includes(poison) ? new StoreError('invalid_argument', 'bad key') : undefined));
    const mutations = [put('t_out', 'a', 1), poison, put('t_in', 'b', 1), put('t_in', 'p', 9)];
    const failures = await executeWrites(s.store, mutations, [0, 1, 2, 1], s.schedule());
    expect([...failures.keys()].sort()).toEqual([1, 3]);
    expect([...failures.values()].every((f) => f.decision === 'dead-letter')).toBe(true);
    expect(await s.store.namespace('t_out').get('a', Uint8Array.of(1))).toBeDefined();
    expect(await s.store.namespace('t_in').get('b', Uint8Array.of(1))).toBeDefined();
  });
});

describe('executeWrites within its retry budget', () => {
  /** A store that never answers: each request fails with a retriable timeout after the driver's request timeout, or after the per-call `timeoutMs` when it is given. */
  const REQUEST_TIMEOUT_MS = 12_000;
  function hangingStore(clock: ReturnType<typeof createTestClock>) {
    const timeouts: (number | undefined)[] = [];
    const store = createMemoryStore({ namespaces: TEST_NAMESPACES });
    store.mutateMany = async (_mutations: readonly Mutation[], options?: { timeoutMs?: number }) => {
      timeouts.push(options?.timeoutMs);
      await clock.sleep(Math.min(REQUEST_TIMEOUT_MS, options?.timeoutMs ?? REQUEST_TIMEOUT_MS));
      throw new StoreError('timeout', 'no answer');
    };
    return { store, timeouts };
  }

  it.each([
    [0, 0],
    [700, 0],
    [1_000, 0],
    [10_000, 0],
    [1_000, 2_000],
    [10_000, 2_000],
  ])('gives up on a write that never answers within a %i ms budget plus a %i ms landing margin, however long the request timeout', async (budgetMs, minAttemptMs) => {
    const clock = createTestClock();
    const { store, timeouts } = hangingStore(clock);
    const start = clock.nowMs();
    const failures = await executeWrites(store, [put('t_out', 'a', 1)], [0], startRetrySchedule({ budgetMs, initialBackoffMs: 100, maxBackoffMs: 400, minAttemptMs }, clock));
    expect(failures.get(0)).toMatchObject({ decision: 'repair', error: { code: 'timeout' } });
    // Each attempt waits what is left of the budget, but at least the margin (a write abandoned sooner may still land) and 100 ms.
    const floor = Math.max(minAttemptMs, 100);
    expect(clock.nowMs() - start).toBeLessThanOrEqual(budgetMs + floor);
    expect(timeouts.every((t) => t !== undefined && t <= Math.max(budgetMs, floor))).toBe(true);
  });
});
