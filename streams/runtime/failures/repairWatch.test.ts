import { describe, expect, it } from 'vitest';
import { createRepairWatch } from './repairWatch.ts';
import { fakeKafkaPort } from '../testing/fakeKafka.ts';

/** The admin calls the watch makes, answered from `offsets` (a unit fake of pure bookkeeping; the real topic is in test/integration). */
function fakeKafka(offsets: { committed: Map<number, string>; high: Map<number, string> }) {
  let checks = 0;
  let gate: Promise<void> | undefined;
  const kafka = fakeKafkaPort({
    admin: {
      fetchOffsets: async () => [{ topic: 'r', partitions: [...offsets.committed].map(([partition, offset]) => ({ partition, offset })) }],
      fetchTopicOffsets: async () => {
        checks++;
        const answer = [...offsets.high].map(([partition, high]) => ({ partition, high, low: '0', offset: high }));
        await gate;
        return answer;
      },
    },
  });
  /** Holds the answers of checks started from now on until the returned function is called. */
  const hold = (): (() => void) => {
    let release!: () => void;
    gate = new Promise((resolve) => (release = resolve));
    return () => {
      gate = undefined;
      release();
    };
  };
  return { kafka, checks: () => checks, hold };
}

describe('createRepairWatch', () => {
  it('a partition is checked when first seen, pending while the group is behind (rechecked at most once a second), and not checked again once clear', async () => {
    const offsets = { committed: new Map([[0, '3']]), high: new Map([[0, '5'], [1, '0']]) };
    const { kafka, checks } = fakeKafka(offsets);
    let now = 0;
    const watch = createRepairWatch(kafka, 'r', 'g', () => now);
    expect(await watch.pending(1)).toBe(false); // empty, never committed
    expect(await watch.pending(0)).toBe(true);
    expect(checks()).toBe(2);
    offsets.committed.set(0, '5');
    now = 500;
    expect(await watch.pending(0)).toBe(true); // not rechecked yet
    now = 1_200;
    expect(await watch.pending(0)).toBe(false);
    now = 60_000;
    expect(await watch.pending(0)).toBe(false);
    expect(checks()).toBe(3);
  });

  it("a hand-off makes its partition pending at once, until a recheck finds the group past the topic's end", async () => {
    const offsets = { committed: new Map([[0, '5']]), high: new Map([[0, '5']]) };
    const { kafka } = fakeKafka(offsets);
    let now = 0;
    const watch = createRepairWatch(kafka, 'r', 'g', () => now);
    expect(await watch.pending(0)).toBe(false);
    watch.handedOff(0);
    offsets.high.set(0, '6');
    expect(await watch.pending(0)).toBe(true);
    now = 1_500;
    expect(await watch.pending(0)).toBe(true); // rechecked: 5 < 6
    offsets.committed.set(0, '6');
    now = 3_000;
    expect(await watch.pending(0)).toBe(false);
  });

  it('an assignment forgets that a partition was clear: re-acquired after another member handed one of its records off, it is checked again', async () => {
    const offsets = { committed: new Map([[0, '5']]), high: new Map([[0, '5']]) };
    const { kafka, checks } = fakeKafka(offsets);
    let now = 0;
    const watch = createRepairWatch(kafka, 'r', 'g', () => now);
    expect(await watch.pending(0)).toBe(false);
    offsets.high.set(0, '6'); // the partition moved to another member, which handed a record off
    now = 60_000;
    expect(await watch.pending(0)).toBe(false); // still this assignment: clear stays known
    expect(checks()).toBe(1);
    watch.assigned(); // the partition came back
    expect(await watch.pending(0)).toBe(true);
    expect(checks()).toBe(2);
    offsets.committed.set(0, '6');
    now = 61_500;
    expect(await watch.pending(0)).toBe(false);
  });

  it('a check in flight when the assignment arrives answers only its own caller; the next asks again', async () => {
    const offsets = { committed: new Map([[0, '5']]), high: new Map([[0, '5']]) };
    const { kafka, checks, hold } = fakeKafka(offsets);
    const watch = createRepairWatch(kafka, 'r', 'g', () => 0);
    const release = hold();
    const before = watch.pending(0);
    while (checks() === 0) await new Promise((resolve) => setImmediate(resolve));
    watch.assigned(); // the check above read 5/5, before the hand-off below
    offsets.high.set(0, '6');
    release();
    expect(await before).toBe(false);
    expect(await watch.pending(0)).toBe(true);
    expect(checks()).toBe(2);
  });

  it("an assignment keeps this runner's own hand-offs pending (its record may not be produced yet)", async () => {
    const offsets = { committed: new Map([[0, '5']]), high: new Map([[0, '5']]) };
    const { kafka, checks } = fakeKafka(offsets);
    const watch = createRepairWatch(kafka, 'r', 'g', () => 0);
    watch.handedOff(0);
    watch.assigned();
    expect(await watch.pending(0)).toBe(true);
    expect(checks()).toBe(0);
  });
});
