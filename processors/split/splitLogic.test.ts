import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketOfKey, versionOf, type WideRowRecord } from '../../sinks/namespaces/index.ts';
import { compareBytes, type Cell } from '../../sinks/store/index.ts';
import { ChainChecksum } from './chainChecksum.ts';
import { compareCells } from './compareCells.ts';
import { chooseBuckets, foldPlanPage, MAX_SAMPLES, START_PLAN } from './planProgress.ts';
import { nextStamps, plannerDecision, splitterDecision, verifierDecision } from './splitLifecycle.ts';

const cell = (key: number[], value: number[] = [1], writeTime = 1n): Cell => ({ key: Uint8Array.from(key), value: Uint8Array.from(value), writeTime });
const sortedKeys = fc.uniqueArray(fc.uint8Array({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 3_000, selector: (k) => Buffer.from(k).toString('hex') }).map((ks) => ks.sort(compareBytes));

describe('chooseBuckets and bucketOfKey', () => {
  it('caps the bucket count and keeps at least two', () => {
    const opts = { targetBucketBytes: 100, maxBuckets: 8 };
    expect(chooseBuckets('hash', 10, 50, START_PLAN, opts).buckets).toBe(2);
    expect(chooseBuckets('hash', 10, 550, START_PLAN, opts).buckets).toBe(6);
    expect(chooseBuckets('hash', 10, 1e9, START_PLAN, opts).buckets).toBe(8);
  });

  it('range boundaries are strictly increasing, cut near equal row counts, and every key lands in a bucket that keeps key order', () => {
    fc.assert(
      fc.property(sortedKeys, fc.integer({ min: 2, max: 16 }), (keys, maxBuckets) => {
        let progress = START_PLAN;
        const checksum = new ChainChecksum();
        for (let i = 0; i < keys.length; i += 1_024) progress = foldPlanPage(progress, keys.slice(i, i + 1_024).map((k) => cell([...k])), checksum).progress;
        expect(progress.samples.length).toBeLessThanOrEqual(MAX_SAMPLES);
        const choice = chooseBuckets('range', keys.length, 1e12, progress, { targetBucketBytes: 1, maxBuckets });
        const bounds = choice.boundaries.map((h) => Buffer.from(h, 'hex'));
        for (let i = 1; i < bounds.length; i++) expect(compareBytes(bounds[i - 1]!, bounds[i]!)).toBeLessThan(0);
        const layout = { strategy: 'range' as const, boundaries: bounds };
        const buckets = keys.map((k) => bucketOfKey(layout, k));
        for (let i = 1; i < buckets.length; i++) expect(buckets[i]!).toBeGreaterThanOrEqual(buckets[i - 1]!);
        expect(new Set(buckets).size).toBe(choice.buckets); // no empty bucket
        if (keys.length >= 4 * maxBuckets * progress.sampleEvery) {
          const sizes = Array.from({ length: choice.buckets }, (_, b) => buckets.filter((x) => x === b).length);
          expect(Math.max(...sizes)).toBeLessThanOrEqual(Math.ceil(keys.length / choice.buckets) + 2 * progress.sampleEvery);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('ChainChecksum', () => {
  it('is the same whether computed in one go or resumed from a block-boundary state, and sees any change', () => {
    const cells = Array.from({ length: 3_000 }, (_, i) => cell([i >> 8, i & 255], [i % 7], BigInt(i)));
    const whole = new ChainChecksum();
    cells.forEach((c) => whole.add(c));
    const first = new ChainChecksum();
    cells.slice(0, 2_048).forEach((c) => first.add(c));
    const resumed = new ChainChecksum(first.state());
    cells.slice(2_048).forEach((c) => resumed.add(c));
    expect(resumed.digest()).toBe(whole.digest());
    const changed = new ChainChecksum();
    cells.forEach((c, i) => changed.add(i === 1_500 ? { ...c, writeTime: c.writeTime + 1n } : c));
    expect(changed.digest()).not.toBe(whole.digest());
    expect(() => new ChainChecksum({ chain: '00'.repeat(32), rows: 5 })).toThrow('block boundary');
  });
});

describe('compareCells', () => {
  it('moved beats everything; otherwise equal only on the same value and write time', () => {
    expect(compareCells(cell([1], [1], 5n), cell([1], [1], 5n), 10n)).toBe('equal');
    expect(compareCells(cell([1], [1], 5n), cell([1], [2], 5n), 10n)).toBe('differs');
    expect(compareCells(cell([1], [1], 5n), cell([1], [1], 6n), 10n)).toBe('differs');
    expect(compareCells(cell([1], [1], 5n), undefined, 10n)).toBe('differs');
    expect(compareCells(undefined, cell([1], [1], 11n), 10n)).toBe('moved');
    expect(compareCells(cell([1], [1], 11n), cell([1], [1], 5n), 10n)).toBe('moved');
  });
});

describe('stage decisions', () => {
  const record = (status: WideRowRecord['status'], generation = 1): WideRowRecord => ({
    namespace: 'follows_in', partitionId: 'c', status, generation, attempts: generation, splitNamespace: 'follows_in_split', strategy: 'hash',
    buckets: 4, boundaries: [], rows: 1, bytes: 1, checksum: 'x', plannedAt: 1_000_000, updatedAt: 1_000_000,
  });
  it('planner: new → plan, FAILED → next generation, PLANNING → resume, PLANNED → announce, later → skip', () => {
    expect(plannerDecision(undefined)).toEqual({ kind: 'plan', generation: 1, attempts: 1, resume: false });
    expect(plannerDecision(record('FAILED', 2))).toEqual({ kind: 'plan', generation: 3, attempts: 3, resume: false });
    expect(plannerDecision(record('PLANNING'))).toMatchObject({ kind: 'plan', resume: true, generation: 1 });
    expect(plannerDecision(record('PLANNED')).kind).toBe('announce');
    for (const s of ['SPLITTING', 'SPLIT', 'COMPLETED'] as const) expect(plannerDecision(record(s)).kind).toBe('skip');
  });
  it('splitter waits out the mirror barrier, ignores other generations, re-announces SPLIT', () => {
    expect(splitterDecision(record('PLANNED'), { generation: 1 }, 1_000_000 + 2_999_000, 3_000)).toEqual({ kind: 'wait', untilMicros: 4_000_000 });
    expect(splitterDecision(record('PLANNED'), { generation: 1 }, 4_000_000, 3_000).kind).toBe('copy');
    expect(splitterDecision(record('SPLITTING'), { generation: 1 }, 9e9, 3_000).kind).toBe('copy');
    expect(splitterDecision(record('SPLIT'), { generation: 1 }, 9e9, 3_000).kind).toBe('announce');
    expect(splitterDecision(record('PLANNED', 2), { generation: 1 }, 9e9, 3_000).kind).toBe('skip');
    expect(verifierDecision(record('SPLIT'), { generation: 1 }).kind).toBe('verify');
    expect(verifierDecision(record('COMPLETED'), { generation: 1 }).kind).toBe('skip');
  });
});

describe('record stamps', () => {
  const base: WideRowRecord = {
    namespace: 'follows_in', partitionId: 'c', status: 'PLANNED', generation: 1, attempts: 1, splitNamespace: 'follows_in_split', strategy: 'hash',
    buckets: 4, boundaries: [], rows: 1, bytes: 1, checksum: 'x', updatedAt: 5,
  };
  it('the version is the replaced one + 1 (1 for the first record), whatever the clock; a record without one continues from updatedAt', () => {
    expect(nextStamps(undefined, 9e15)).toEqual({ version: 1, updatedAt: 9e15 });
    expect(nextStamps({ ...base, version: 7 }, 1)).toEqual({ version: 8, updatedAt: 1 });
    expect(nextStamps(base, 0)).toEqual({ version: 6, updatedAt: 0 });
  });

  it('a stage acting on a stale read never writes above the chain that moved on, whatever its clock', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 1, max: 10 }), fc.array(fc.integer({ min: 0, max: 2 ** 50 }), { minLength: 21, maxLength: 21 }), (readAt, ahead, clocks) => {
        // The live chain: records written one after the other, each from the one before, at random clocks.
        const chain: WideRowRecord[] = [{ ...base, ...nextStamps(undefined, clocks[0] as number) }];
        for (let i = 1; i <= readAt + ahead; i++) chain.push({ ...(chain[i - 1] as WideRowRecord), ...nextStamps(chain[i - 1], clocks[i] as number) });
        // A zombie read chain[readAt] and writes its successor with a clock far ahead.
        const zombie = nextStamps(chain[readAt], 2 ** 52);
        expect(zombie.version).toBeLessThanOrEqual(versionOf(chain.at(-1) as WideRowRecord));
      }),
    );
  });
});

