import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPartitionFilter } from './createPartitionFilter.ts';

describe('createPartitionFilter', () => {
  it('never answers "no" for a key it was given (no false negatives)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.string({ unit: 'binary', maxLength: 40 }), { maxLength: 300 }), fc.double({ min: 0.001, max: 0.4, noNaN: true }), async (keys, fpr) => {
        const filter = await createPartitionFilter(keys.length, fpr);
        for (const k of keys) filter.add(k);
        for (const k of keys) expect(filter.has(k)).toBe(true);
      }),
      { numRuns: 100 },
    );
  }, 30_000);

  it('keeps the false-positive rate near the one it was sized for', async () => {
    const filter = await createPartitionFilter(20_000, 0.01);
    for (let i = 0; i < 20_000; i++) filter.add(`follows_in\u0000celebrity-${i}`);
    let positives = 0;
    const probes = 100_000;
    for (let i = 0; i < probes; i++) if (filter.has(`follows_in\u0000user-${i}`)) positives++;
    // 1 % expected; a broken index derivation (e.g. a zero stride) lands far above 2 %.
    expect(positives / probes).toBeLessThan(0.02);
    expect(filter.hashes).toBe(7);
  });
});
