import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createConsistencyGate } from './createConsistencyGate.ts';
import type { OffsetSnapshot } from './judgeToken.ts';

const topic = 'p.edge-mutations';
const snapshot = (end: bigint, committed: bigint): OffsetSnapshot => ({
  inputTopic: topic,
  inputEnd: new Map([[0, end]]),
  fanOutCommitted: new Map([[0, committed]]),
  repairCommitted: new Map([[0, 0n]]),
  repairEnd: new Map([[0, 0n]]),
});

/** A fetch the test answers by hand, one call at a time. */
function manualFetch() {
  const calls: ((s: OffsetSnapshot) => void)[] = [];
  return { calls, fetch: () => new Promise<OffsetSnapshot>((resolve) => calls.push(resolve)) };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('createConsistencyGate', () => {
  it('does not call a token unknown on a snapshot whose read began before the token was waited for', async () => {
    const f = manualFetch();
    const gate = createConsistencyGate({ fetch: f.fetch, pollIntervalMs: 1, logger: pino({ level: 'silent' }) });
    const first = gate.waitFor({ topic, partition: 0, offset: '3' }, 5_000);
    await tick();
    // record 10 is acknowledged while the first read is in flight; its reader starts waiting now
    const second = gate.waitFor({ topic, partition: 0, offset: '10' }, 5_000);
    f.calls.shift()?.(snapshot(5n, 4n)); // read before record 10 existed
    expect(await first).toEqual({ kind: 'visible' });
    await tick();
    await new Promise((r) => setTimeout(r, 5));
    f.calls.shift()?.(snapshot(11n, 11n));
    expect(await second).toEqual({ kind: 'visible' });
    gate.close();
  });

  it('answers unknown from a fresh snapshot, timeout with the last pending reason, and visible from the cache without a read', async () => {
    const f = manualFetch();
    const gate = createConsistencyGate({ fetch: f.fetch, pollIntervalMs: 1, logger: pino({ level: 'silent' }) });
    const unknown = gate.waitFor({ topic, partition: 0, offset: '50' }, 5_000);
    const pending = gate.waitFor({ topic, partition: 0, offset: '7' }, 30);
    await tick();
    f.calls.shift()?.(snapshot(10n, 5n));
    expect(await unknown).toMatchObject({ kind: 'unknown' });
    await new Promise((r) => setTimeout(r, 5));
    f.calls.shift()?.(snapshot(10n, 6n));
    expect(await pending).toEqual({ kind: 'timeout', reason: `the fan-out has committed ${topic}/0 up to 6; the token needs past 7` });
    const before = f.calls.length;
    expect(await gate.waitFor({ topic, partition: 0, offset: '2' }, 5_000)).toEqual({ kind: 'visible' });
    expect(f.calls.length).toBe(before);
    gate.close();
  });

  it('holds at most maxWaiters waits, answering one more overloaded at once, and polls once per interval however many wait', async () => {
    const f = manualFetch();
    const gate = createConsistencyGate({ fetch: f.fetch, pollIntervalMs: 1, maxWaiters: 3, logger: pino({ level: 'silent' }) });
    const waits = [1, 2, 3].map((o) => gate.waitFor({ topic, partition: 0, offset: String(o) }, 5_000));
    expect(await gate.waitFor({ topic, partition: 0, offset: '4' }, 5_000)).toMatchObject({ kind: 'overloaded' });
    await tick();
    expect(f.calls.length).toBe(1); // one shared read for three waits
    f.calls.shift()?.(snapshot(10n, 9n));
    expect(await Promise.all(waits)).toEqual([{ kind: 'visible' }, { kind: 'visible' }, { kind: 'visible' }]);
    gate.close();
  });
});
