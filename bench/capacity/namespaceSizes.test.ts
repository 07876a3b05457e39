import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketsFor, dirtyWritesPerShardPerSecond, namespaceSizes, splitsOf, type RowSizes, type WideSettings } from './namespaceSizes.ts';
import { degreeAtRank, verticesWithDegreeAtLeast, zipfDegrees } from './zipfDegrees.ts';

const wide: WideSettings = { thresholdBytes: 8 << 20, thresholdRows: 100_000, targetBucketBytes: 1 << 20, maxBuckets: 16, directoryRebuildMs: 600_000 };
const rows: RowSizes = { linkRowBytes: 52, recentRowBytes: 49, propsRowBytes: 24, degreesRowBytes: 19, partitionOverheadBytes: 60, wideRowRecordBytes: 1_800 };
const byName = (ns: ReturnType<typeof namespaceSizes>, name: string) => ns.find((n) => n.name === name)!;

describe('bucketsFor', () => {
  it('is ceil(bytes / target) clamped to [2, maxBuckets]', () => {
    expect(bucketsFor(1, wide)).toBe(2);
    expect(bucketsFor(3 * (1 << 20) + 1, wide)).toBe(4);
    expect(bucketsFor(1e12, wide)).toBe(16);
  });
});

describe('splitsOf', () => {
  it('sums the clamped bucket counts of every partition over the threshold (against a rank-by-rank sum)', () => {
    const z = zipfDegrees(1e6, 5e8, 1);
    const s = splitsOf(z, 52, wide);
    let buckets = 0;
    let wideCount = 0;
    for (let r = 1; degreeAtRank(z, r) >= s.thresholdRows; r++) {
      wideCount++;
      buckets += bucketsFor(degreeAtRank(z, r) * 52, wide);
    }
    expect(s.widePartitions).toBe(wideCount);
    expect(Math.abs(s.buckets - buckets)).toBeLessThanOrEqual(wide.maxBuckets);
  });

  it('takes the rows threshold or the bytes threshold, whichever a read crosses first', () => {
    const z = zipfDegrees(1e6, 1e9, 1);
    expect(splitsOf(z, 52, wide).thresholdRows).toBe(100_000);
    expect(splitsOf(z, 1_000, wide).thresholdRows).toBe(Math.ceil((8 << 20) / 1_000));
  });

  it('has between 2 and maxBuckets buckets per split', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e6, max: 1e11, noNaN: true }), fc.double({ min: 1, max: 1_000, noNaN: true }), fc.double({ min: 0.5, max: 1.5, noNaN: true }), (v, mean, s) => {
        const split = splitsOf(zipfDegrees(Math.floor(v), v * mean, s), 52, wide);
        expect(split.buckets).toBeGreaterThanOrEqual(2 * split.widePartitions);
        expect(split.buckets).toBeLessThanOrEqual(wide.maxBuckets * split.widePartitions);
      }),
      { numRuns: 50 },
    );
  });
});

describe('namespaceSizes', () => {
  const shape = (vertices: number, edges: number) => ({ out: zipfDegrees(vertices, edges, 0.6), in: zipfDegrees(vertices, edges, 0.9), propsPerEdge: 1, ingestLinksPerSecond: 1e5 });

  it('grows with the edges: partitions, rows, bytes and splits never shrink', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e3, max: 1e11, noNaN: true }), fc.double({ min: 0.5, max: 200, noNaN: true }), fc.double({ min: 1.01, max: 20, noNaN: true }), (v, mean, more) => {
        const vertices = Math.floor(v);
        const a = namespaceSizes(shape(vertices, vertices * mean), rows, wide);
        const b = namespaceSizes(shape(vertices, vertices * mean * more), rows, wide);
        a.forEach((n, i) => {
          const m = b[i]!;
          expect(m.partitions).toBeGreaterThanOrEqual(n.partitions * (1 - 1e-9));
          expect(m.rows).toBeGreaterThanOrEqual(n.rows * (1 - 1e-9));
          expect(m.logicalBytes).toBeGreaterThanOrEqual(n.logicalBytes * (1 - 1e-9));
          expect(m.splits?.widePartitions ?? 0).toBeGreaterThanOrEqual(n.splits?.widePartitions ?? 0);
        });
      }),
      { numRuns: 40 },
    );
  });

  it('keys a link partition per endpoint with edges: at most the vertices and the edges; degrees covers both directions', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e3, max: 1e11, noNaN: true }), fc.double({ min: 0.01, max: 200, noNaN: true }), (v, mean) => {
        const vertices = Math.floor(v);
        const edges = vertices * mean;
        const ns = namespaceSizes(shape(vertices, edges), rows, wide);
        const out = byName(ns, 'T_out').partitions;
        const inn = byName(ns, 'T_in').partitions;
        for (const p of [out, inn]) expect(p).toBeLessThanOrEqual(Math.min(vertices, edges) * (1 + 1e-9));
        const degrees = byName(ns, 'degrees').partitions;
        expect(degrees).toBeGreaterThanOrEqual(Math.max(out, inn) * (1 - 1e-9));
        expect(degrees).toBeLessThanOrEqual(Math.min(vertices, out + inn) * (1 + 1e-9));
        expect(byName(ns, 'T_out_recent').partitions).toBe(out);
        expect(byName(ns, 'T_props').rows).toBe(edges);
      }),
      { numRuns: 40 },
    );
  });

  it('holds one wide_rows record per split and one bucket partition per bucket', () => {
    const ns = namespaceSizes(shape(1e9, 1e10), rows, wide);
    const links = ['T_out', 'T_out_recent', 'T_in', 'T_in_recent'].map((n) => byName(ns, n).splits!);
    expect(byName(ns, 'wide_rows').rows).toBe(links.reduce((a, s) => a + s.widePartitions, 0));
    expect(byName(ns, 'T_*_split (buckets)').partitions).toBe(links.reduce((a, s) => a + s.buckets, 0));
    expect(byName(ns, 'T_in').splits!.widePartitions).toBe(verticesWithDegreeAtLeast(zipfDegrees(1e9, 1e10, 0.9), 100_000));
  });

  it('spreads degree_dirty over its 16 fixed shards whatever the scale', () => {
    expect(byName(namespaceSizes(shape(1e11, 1e13), rows, wide), 'degree_dirty').partitions).toBe(16);
    expect(dirtyWritesPerShardPerSecond(16)).toBe(8);
  });
});
