import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockedFalsePositiveRate, sizeBlockedBloom } from './blockedBloomSizing.ts';
import { createPartitionFilter } from './createPartitionFilter.ts';

describe('createPartitionFilter (blocked Bloom filter)', () => {
  it('never answers "no" for a key it was given (no false negatives)', () => {
    const key = fc.record({ ns: fc.string({ unit: 'binary', maxLength: 12 }), id: fc.string({ unit: 'binary', maxLength: 40 }) });
    fc.assert(
      fc.property(fc.array(key, { maxLength: 300 }), fc.double({ min: 0.0001, max: 0.4, noNaN: true }), (keys, fpr) => {
        const filter = createPartitionFilter(keys.length, fpr);
        for (const k of keys) filter.add(k.ns, k.id);
        for (const k of keys) expect(filter.has(k.ns, k.id)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it.each([0.01, 0.001])('keeps the measured false-positive rate near its target %s at capacity, on sequential and unicode ids', (target) => {
    const n = 50_000;
    const filter = createPartitionFilter(n, target);
    for (let i = 0; i < n; i++) filter.add(i % 2 ? 'follows_in' : 'likes_in', i % 3 ? `celebrity-${i}` : `célébrité-${i}-✓`);
    let positives = 0;
    const probes = 400_000;
    for (let i = 0; i < probes; i++) if (filter.has(i % 2 ? 'follows_in' : 'likes_in', `user-${i}`)) positives++;
    const measured = positives / probes;
    expect(filter.predictedFalsePositiveRate).toBeLessThanOrEqual(target);
    // Within 30 % of the target (sampling noise at 0.1 % is ~±8 %); a broken hash lands far above.
    expect(measured).toBeLessThan(target * 1.3);
    expect(measured).toBeGreaterThan(target * 0.4);
  });

  it('keeps the namespace and id apart: ("ab", "c") is not ("a", "bc")', () => {
    const filter = createPartitionFilter(64, 0.0001);
    filter.add('ab', 'c');
    expect(filter.has('a', 'bc')).toBe(false);
  });

  it('sizes for the target with about 10 bits per key at 1 % and reports what it holds', () => {
    const s = sizeBlockedBloom(1_000_000, 0.01);
    const bitsPerKey = (s.blocks * 512) / 1_000_000;
    expect(bitsPerKey).toBeGreaterThan(9.6); // an unblocked filter's optimum: a blocked one cannot beat it
    expect(bitsPerKey).toBeLessThan(11);
    expect(blockedFalsePositiveRate(1_000_000 / s.blocks, s.hashes)).toBeLessThanOrEqual(0.01);
    const filter = createPartitionFilter(10, 0.01);
    filter.add('a', 'b');
    filter.add('a', 'b');
    expect([filter.count, filter.capacity]).toEqual([2, 64]);
  });
});
