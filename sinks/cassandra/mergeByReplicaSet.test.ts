import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeByReplicaSet, type CrossPartitionLimits, type MergeCandidate } from './mergeByReplicaSet.ts';

interface Unit extends MergeCandidate {
  readonly n: number;
}

const LIMITS: CrossPartitionLimits = { maxPartitions: 10, maxStatements: 64, maxBytes: 5120 };
const unit = (n: number, replicaSet: string | undefined, statementCount = 2, bytes = 300): Unit => ({ n, replicaSet, statementCount, bytes });

describe('mergeByReplicaSet', () => {
  it('packs small partitions of one replica set up to maxPartitions per batch', () => {
    const units = Array.from({ length: 25 }, (_, n) => unit(n, 'A'));
    expect(mergeByReplicaSet(units, LIMITS).map((g) => g.length)).toEqual([10, 10, 5]);
  });

  it('keeps replica sets apart, and leaves alone a unit without a known replica set or too big to share', () => {
    const units = [unit(0, 'A'), unit(1, 'B'), unit(2, undefined), unit(3, 'A', 70), unit(4, 'A', 2, 6000), unit(5, 'B'), unit(6, 'A')];
    expect(mergeByReplicaSet(units, LIMITS).map((g) => g.map((u) => u.n))).toEqual([[0, 6], [1, 5], [2], [3], [4]]);
  });

  it('opens a new batch when the statements or bytes of the open one would overflow', () => {
    const units = [unit(0, 'A', 40), unit(1, 'A', 30), unit(2, 'A', 20, 3000), unit(3, 'A', 2, 3000)];
    expect(mergeByReplicaSet(units, LIMITS).map((g) => g.map((u) => u.n))).toEqual([[0], [1, 2], [3]]);
  });

  it('merges nothing with maxPartitions 1', () => {
    const units = [unit(0, 'A'), unit(1, 'A')];
    expect(mergeByReplicaSet(units, { ...LIMITS, maxPartitions: 1 })).toEqual([[units[0]], [units[1]]]);
  });

  it('places every unit exactly once, in input order per group, within the limits of a shared batch', () => {
    const unitArb = fc.record({
      replicaSet: fc.option(fc.constantFrom('A', 'B', 'C'), { nil: undefined }),
      statementCount: fc.integer({ min: 1, max: 80 }),
      bytes: fc.integer({ min: 64, max: 8000 }),
    });
    const limitsArb = fc.record({
      maxPartitions: fc.integer({ min: 1, max: 12 }),
      maxStatements: fc.integer({ min: 1, max: 100 }),
      maxBytes: fc.integer({ min: 256, max: 10_000 }),
    });
    fc.assert(
      fc.property(fc.array(unitArb, { maxLength: 60 }), limitsArb, (raw, limits) => {
        const units: Unit[] = raw.map((u, n) => ({ ...u, n }));
        const groups = mergeByReplicaSet(units, limits);
        expect(groups.flat().map((u) => u.n).sort((a, b) => a - b)).toEqual(units.map((u) => u.n));
        for (const g of groups) {
          expect(g.length).toBeGreaterThan(0);
          expect(g.map((u) => u.n)).toEqual([...g.map((u) => u.n)].sort((a, b) => a - b));
          if (g.length === 1) continue;
          expect(g[0]?.replicaSet).toBeDefined();
          expect(new Set(g.map((u) => u.replicaSet)).size).toBe(1);
          expect(g.length).toBeLessThanOrEqual(limits.maxPartitions);
          expect(g.reduce((s, u) => s + u.statementCount, 0)).toBeLessThanOrEqual(limits.maxStatements);
          expect(g.reduce((s, u) => s + u.bytes, 0)).toBeLessThanOrEqual(limits.maxBytes);
        }
      }),
    );
  });
});
