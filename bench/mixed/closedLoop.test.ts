import { describe, expect, it } from 'vitest';
import { runClosedLoop } from './closedLoop.ts';
import { OP_KINDS, type MixOp } from './opMix.ts';

describe('runClosedLoop', () => {
  it('runs one op at a time per client, records only after the warm-up, and counts errors by kind', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const started: number[] = [];
    let measureStartedAt = 0;
    const ops: MixOp[] = [{ kind: 'GET_LINKS_LIST', src: 'a' }, { kind: 'COUNT_LINK', src: 'a' }, { kind: 'DELETE_LINK', src: 'a', dst: 'b' }];
    const r = await runClosedLoop({
      clients: 3,
      warmupSeconds: 0.05,
      seconds: 0.25,
      nextOp: () => {
        let i = 0;
        return () => ops[i++ % ops.length] as MixOp;
      },
      execute: async (op) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        started.push(performance.now());
        await new Promise((resolve) => setTimeout(resolve, 2));
        inFlight--;
        if (op.kind === 'DELETE_LINK') throw new Error('refused');
      },
      onMeasureStart: () => (measureStartedAt = performance.now()),
    });
    expect(maxInFlight).toBe(3);
    // A closed loop has no due times: its figures are the ops' own, and no separate service time.
    expect(r.byKind.GET_LINKS_LIST.service).toBeUndefined();
    expect(measureStartedAt).toBeGreaterThan(0);
    const recorded = OP_KINDS.reduce((s, k) => s + r.byKind[k].samples, 0);
    expect(recorded).toBe(r.ops);
    expect(r.byKind.DELETE_LINK.samples).toBe(0);
    expect(r.byKind.DELETE_LINK.errors).toBe(r.errors);
    expect(r.byKind.DELETE_LINK.firstError).toBe('refused');
    expect(r.byKind.GET_LINKS_LIST.samples).toBeGreaterThan(0);
    // Warm-up ops ran but are not in the figures.
    expect(started.filter((t) => t < measureStartedAt).length).toBeGreaterThan(0);
    expect(r.ops + r.errors).toBeLessThan(started.length);
    expect(Math.abs(r.opsPerSecond - r.ops / r.seconds) / r.opsPerSecond).toBeLessThan(0.05); // seconds is rounded to 10 ms
  });

  it('with a rate, sends about that many ops in the window whatever the op takes, and a late op\u2019s latency counts its wait', async () => {
    const one: MixOp = { kind: 'COUNT_LINK', src: 'a' };
    const r = await runClosedLoop({ clients: 4, rate: 400, rateSeed: 7, warmupSeconds: 0, seconds: 0.5, nextOp: () => () => one, execute: async () => {} });
    // 200 Poisson arrivals expected: a closed loop of instant ops would run thousands.
    expect(r.ops).toBeGreaterThan(120);
    expect(r.ops).toBeLessThan(300);
    // Instant ops: a latency never comes out below zero (timers may fire early).
    expect(r.byKind.COUNT_LINK.p50Ms).toBeGreaterThanOrEqual(0);
    // One client, ops due every ~10 ms that take 30 ms: each starts later than due, and the latency counts from the due time.
    const slow = await runClosedLoop({ clients: 1, rate: 100, warmupSeconds: 0, seconds: 0.3, nextOp: () => () => one, execute: () => new Promise((resolve) => setTimeout(resolve, 30)) });
    expect(slow.ops).toBeLessThan(15);
    expect(slow.byKind.COUNT_LINK.p99Ms).toBeGreaterThan(60);
    // ...while the op's own time, from when it was sent, stays the 30 ms it takes.
    expect(slow.byKind.COUNT_LINK.service?.p99Ms).toBeGreaterThanOrEqual(29);
    expect(slow.byKind.COUNT_LINK.service?.p99Ms).toBeLessThan(50);
    expect(r.byKind.COUNT_LINK.service).toBeDefined();
  });
});
