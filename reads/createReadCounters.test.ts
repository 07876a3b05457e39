import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WidePartitionDetected } from '../schemas/generated/WidePartitionDetected.ts';
import { createReadCounters, type ReadCountersOptions } from './createReadCounters.ts';

const wide = { windowMs: 60_000, thresholdBytes: 1_000, thresholdRows: 100, coolDownMs: 600_000 };

function setup(overrides: Partial<ReadCountersOptions> = {}) {
  let now = 1_700_000_000_000;
  const events: WidePartitionDetected[] = [];
  const counters = createReadCounters({ wide, onWide: (e) => void events.push(e), clock: () => now, ...overrides });
  return { counters, events, advance: (ms: number) => (now += ms), now: () => now };
}

const sample = (bytesRead: number, rowsRead = 0, rowsReturned = 0) => ({ bytesRead, rowsRead, rowsReturned });

describe('createReadCounters', () => {
  it('reports a partition once its bytes within the window reach the threshold, with the window totals', () => {
    const { counters, events, advance, now } = setup();
    counters.record('follows_out', 'hub', sample(600, 10, 4));
    advance(1_000);
    counters.record('follows_out', 'other', sample(600, 10, 4));
    expect(events).toEqual([]);
    counters.record('follows_out', 'hub', sample(400, 5, 5));
    expect(events).toEqual([
      {
        namespace: 'follows_out',
        partition_id: 'hub',
        bytes_read: 1_000n,
        rows_read: 15n,
        rows_returned: 9n,
        detected_at: BigInt(now()) * 1000n,
        immutable: false,
        window_ms: 60_000n,
      },
    ]);
  });

  it('reports on rows alone too (whichever threshold is crossed first)', () => {
    const { counters, events } = setup();
    counters.record('follows_out_recent', 'hub', sample(10, 100, 0));
    expect(events.map((e) => [e.namespace, e.rows_read, e.bytes_read])).toEqual([['follows_out_recent', 100n, 10n]]);
  });

  it('forgets reads older than the window', () => {
    const { counters, events, advance } = setup();
    counters.record('n', 'p', sample(900));
    advance(60_000);
    counters.record('n', 'p', sample(900));
    expect(events).toEqual([]);
    advance(1_000);
    counters.record('n', 'p', sample(100));
    expect(events).toHaveLength(1);
    expect(events[0]!.bytes_read).toBe(1_000n);
  });

  it('reports a partition at most once per cool-down, then again if it is still wide', () => {
    const { counters, events, advance } = setup({ wide: { ...wide, coolDownMs: 120_000 } });
    for (let i = 0; i < 30; i++) {
      counters.record('n', 'p', sample(1_000));
      advance(10_000);
    }
    // reads every 10 s for 300 s, always wide: reported at 0 s, 120 s and 240 s
    expect(events).toHaveLength(3);
    expect(events.map((e) => Number(e.detected_at - events[0]!.detected_at) / 1000)).toEqual([0, 120_000, 240_000]);
  });

  it('a cool-down of 0 reports every read that finds the partition wide', () => {
    const { counters, events } = setup({ wide: { ...wide, coolDownMs: 0 } });
    counters.record('n', 'p', sample(1_000));
    counters.record('n', 'p', sample(1));
    expect(events).toHaveLength(2);
  });

  it('tracks at most maxPartitions, forgetting the least recently read one', () => {
    const { counters, events } = setup({ maxPartitions: 2 });
    counters.record('n', 'a', sample(900));
    counters.record('n', 'b', sample(900));
    counters.record('n', 'a', sample(0)); // a is now the most recently read
    counters.record('n', 'c', sample(900)); // forgets b
    counters.record('n', 'b', sample(100)); // b starts again from 100 (forgets a)
    counters.record('n', 'c', sample(100)); // c: 1000
    expect(events.map((e) => e.partition_id)).toEqual(['c']);
  });

  it('window totals equal the sum of the reads in the last `slots` slots, for random reads and clock steps', () => {
    const slots = 6;
    const slotMs = wide.windowMs / slots;
    const step = fc.record({ advanceMs: fc.integer({ min: 0, max: 25_000 }), bytes: fc.integer({ min: 0, max: 400 }), rows: fc.integer({ min: 0, max: 40 }) });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
        const { counters, events, advance, now } = setup({ slots, wide: { ...wide, coolDownMs: 0 } });
        const history: { at: number; bytes: number; rows: number }[] = [];
        for (const s of steps) {
          advance(s.advanceMs);
          history.push({ at: now(), bytes: s.bytes, rows: s.rows });
          const before = events.length;
          counters.record('n', 'p', sample(s.bytes, s.rows, 0));
          const current = Math.floor(now() / slotMs);
          const inWindow = history.filter((h) => Math.floor(h.at / slotMs) > current - slots);
          const bytes = inWindow.reduce((n, h) => n + h.bytes, 0);
          const rows = inWindow.reduce((n, h) => n + h.rows, 0);
          const wideNow = bytes >= wide.thresholdBytes || rows >= wide.thresholdRows;
          expect(events.length - before).toBe(wideNow ? 1 : 0);
          if (wideNow) expect([events.at(-1)!.bytes_read, events.at(-1)!.rows_read]).toEqual([BigInt(bytes), BigInt(rows)]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
