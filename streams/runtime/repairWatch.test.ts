import type { Kafka } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { createRepairWatch } from './repairWatch.ts';

/** The admin calls the watch makes, answered from `offsets` (a unit fake of pure bookkeeping; the real topic is in test/integration). */
function fakeKafka(offsets: { committed: Map<number, string>; high: Map<number, string> }) {
  let checks = 0;
  const kafka = {
    admin: () => ({
      connect: async () => undefined,
      disconnect: async () => undefined,
      fetchOffsets: async () => [{ topic: 'r', partitions: [...offsets.committed].map(([partition, offset]) => ({ partition, offset })) }],
      fetchTopicOffsets: async () => (checks++, [...offsets.high].map(([partition, high]) => ({ partition, high, low: '0', offset: high }))),
    }),
  } as unknown as Kafka;
  return { kafka, checks: () => checks };
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
});
