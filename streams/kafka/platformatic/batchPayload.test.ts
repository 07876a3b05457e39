import type { Consumer } from '@platformatic/kafka';
import { describe, expect, it } from 'vitest';
import { batchPayload } from './batchPayload.ts';
import { ConsumerPartitions } from './consumerPartitions.ts';

function setUp() {
  const partitions = new ConsumerPartitions();
  partitions.assign({ t: [0, 1] });
  const commits: unknown[] = [];
  const consumer = { commit: async (o: unknown) => void commits.push(o) } as unknown as Consumer;
  let nudged = 0;
  const mark = partitions.take('t:0');
  const payload = batchPayload({
    batch: { topic: 't', partition: 0, messages: [] },
    mark,
    partitions,
    consumer,
    isRunning: () => true,
    nudge: () => void nudged++,
  });
  return { partitions, commits, payload, nudged: () => nudged };
}

describe("the platformatic adapter's batch payload", () => {
  it('moves the fetch position with each resolved offset and commits what was resolved when given no offsets', async () => {
    const { partitions, commits, payload } = setUp();
    payload.resolveOffset('41');
    expect(partitions.position('t:0')).toBe(42n);
    await payload.commitOffsetsIfNecessary();
    await payload.commitOffsetsIfNecessary({ topics: [{ topic: 't', partitions: [{ partition: 1, offset: '7' }] }] });
    expect(commits).toEqual([
      { offsets: [{ topic: 't', partition: 0, offset: 42n, leaderEpoch: -1 }] },
      { offsets: [{ topic: 't', partition: 1, offset: 7n, leaderEpoch: -1 }] },
    ]);
  });

  it('after a seek: stale, and a resolved offset no longer moves the position the seek set', () => {
    const { partitions, payload } = setUp();
    partitions.seek('t:0', 3n);
    expect(payload.isStale()).toBe(true);
    payload.resolveOffset('41');
    expect(partitions.position('t:0')).toBe(3n);
  });

  it('after a rebalance: heartbeat() and commits throw a retriable error and nothing is committed', async () => {
    const { partitions, commits, payload } = setUp();
    await expect(payload.heartbeat()).resolves.toBeUndefined();
    partitions.revokeAll();
    await expect(payload.heartbeat()).rejects.toMatchObject({ retriable: true, message: expect.stringMatching(/rebalanced/) });
    await expect(payload.commitOffsetsIfNecessary({ topics: [{ topic: 't', partitions: [{ partition: 0, offset: '1' }] }] })).rejects.toMatchObject({ retriable: true });
    expect(commits).toEqual([]);
  });

  it('pauses its partition; the resume it returns un-pauses it and wakes the fetch loop', () => {
    const { partitions, payload, nudged } = setUp();
    const resume = payload.pause();
    expect(partitions.fetchable().map((f) => f.key)).toEqual(['t:1']);
    resume();
    expect(nudged()).toBe(1);
    expect(partitions.fetchable().map((f) => f.key)).toEqual(['t:1']); // t:0 is still in hand (taken), not paused
  });
});
