import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calibrationFigures } from './calibration.ts';
import { estimateCapacity, type Scale } from './capacityModel.ts';
import { loadCalibration } from './loadCalibration.ts';

// The committed results are the calibration: reading them is the only I/O, and it must keep working.
const calibration = loadCalibration(path.join(import.meta.dirname, '..', 'results'), 'mixed');
const wide = { thresholdBytes: 8 << 20, thresholdRows: 100_000, targetBucketBytes: 1 << 20, maxBuckets: 16, directoryRebuildMs: 600_000 };
const scale = (vertices: number, edges: number): Scale => ({ vertices, edges, zipfIn: 0.9, zipfOut: 0.6, ingestLinksPerSecond: 1e6, opsPerSecond: 1e6, propsPerEdge: 1, hops: 2, perHopCap: 1_000 });

describe('loadCalibration', () => {
  it('finds every measured figure in bench/results, naming the file and the commit', () => {
    for (const profile of ['mixed', 'ingest'] as const) {
      for (const [name, f] of calibrationFigures(loadCalibration(path.join(import.meta.dirname, '..', 'results'), profile))) {
        expect(Number.isFinite(f.value) && f.value > 0, name).toBe(true);
        if (f.measured) expect(f.basis, name).toMatch(/^bench\/results\/[a-z-]+\.json @ [0-9a-f]{7}: /);
      }
    }
  });
});

describe('estimateCapacity', () => {
  it('warns when the Zipf head gives one vertex more peers than there are vertices', () => {
    expect(estimateCapacity({ ...scale(1e10, 1e12), zipfIn: 1.1 }, wide, calibration).warnings).toEqual([expect.stringMatching(/largest in-degree \(\d+\) exceeds the vertices: lower --zipf$/)]);
    expect(estimateCapacity({ ...scale(1e10, 1e12), zipfIn: 0.8 }, wide, calibration).warnings).toEqual([]);
  });

  it('never needs less of anything for more edges', () => {
    fc.assert(
      fc.property(fc.constantFrom(1e9, 8e9, 1e10, 1e11), fc.double({ min: 1, max: 100, noNaN: true }), fc.double({ min: 1.01, max: 10, noNaN: true }), (vertices, mean, more) => {
        const a = estimateCapacity(scale(vertices, vertices * mean), wide, calibration);
        const b = estimateCapacity(scale(vertices, vertices * mean * more), wide, calibration);
        expect(b.totals.partitions).toBeGreaterThanOrEqual(a.totals.partitions);
        expect(b.totals.logicalBytes).toBeGreaterThan(a.totals.logicalBytes);
        expect(b.totals.splits).toBeGreaterThanOrEqual(a.totals.splits);
        expect(b.sizing.cassandraNodes).toBeGreaterThanOrEqual(a.sizing.cassandraNodes);
        expect(b.sizing.directoryHeapBytes).toBeGreaterThanOrEqual(a.sizing.directoryHeapBytes);
      }),
      { numRuns: 25 },
    );
  });

  it('counts splits across the four splittable namespaces and sizes the directory from them', () => {
    const e = estimateCapacity(scale(1e9, 1e10), wide, calibration);
    const splittable = e.namespaces.filter((n) => n.splits);
    expect(splittable.map((n) => n.name)).toEqual(['T_out', 'T_out_recent', 'T_in', 'T_in_recent']);
    expect(e.totals.splits).toBe(splittable.reduce((a, n) => a + n.splits!.widePartitions, 0));
    expect(e.sizing.directoryBloomBytes).toBeCloseTo(e.totals.splits * calibration.bloomBytesPerSplit.value, 6);
    expect(e.totals.partitions).toBeGreaterThanOrEqual(e.namespaces.find((n) => n.name === 'degrees')!.partitions);
  });
});
