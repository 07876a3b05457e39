import { describe, expect, it } from 'vitest';
import { ConsumerPartitions, partitionKey } from './consumerPartitions.ts';

const keys = (p: ConsumerPartitions) => p.fetchable().map((f) => f.key);

describe("the platformatic consumer's partition bookkeeping", () => {
  it('fetches what the group assigned, minus what is paused or in hand, with positions unknown until filled', () => {
    const p = new ConsumerPartitions();
    expect(keys(p)).toEqual([]);
    p.assign({ t: [0, 1, 2], u: [0] });
    expect(keys(p)).toEqual(['t:0', 't:1', 't:2', 'u:0']);
    expect(p.fetchable().every((f) => f.position === undefined)).toBe(true);
    p.pause('u');
    p.pause('t', [1]);
    const mark = p.take('t:2');
    expect(keys(p)).toEqual(['t:0']);
    p.resume('t', 1);
    p.release(mark);
    expect(keys(p)).toEqual(['t:0', 't:1', 't:2']);
    p.fillPosition('t:0', 5n);
    p.fillPosition('x:9', 1n); // not assigned: ignored
    expect(p.position('t:0')).toBe(5n);
    expect(p.position('x:9')).toBeUndefined();
  });

  it('lets a seek win over the committed offset read meanwhile', () => {
    const p = new ConsumerPartitions();
    p.assign({ t: [0] });
    p.seek('t:0', 3n);
    p.fillPosition('t:0', 10n);
    expect(p.position('t:0')).toBe(3n);
  });

  it('makes a batch stale on a seek of its partition, a rebalance or a join, and only a rebalance or join count as rebalanced', () => {
    const p = new ConsumerPartitions();
    p.assign({ t: [0, 1] });
    const a = p.take(partitionKey('t', 0));
    const b = p.take(partitionKey('t', 1));
    expect([p.isStale(a), p.isStale(b)]).toEqual([false, false]);
    p.seek('t:0', 0n);
    expect([p.isStale(a), p.rebalancedSince(a), p.isStale(b)]).toEqual([true, false, false]);
    p.revokeAll();
    expect([p.isStale(b), p.rebalancedSince(b), keys(p)]).toEqual([true, true, []]);
    p.assign({ t: [1] });
    expect(p.isStale(b)).toBe(true);
    // Positions are read again after every join; a fresh batch is current.
    expect(p.position('t:0')).toBeUndefined();
    p.release(b);
    expect(p.isStale(p.take('t:1'))).toBe(false);
  });
});
