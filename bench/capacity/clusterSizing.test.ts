import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replicationCpuFactor, sizeCluster, type SizingInputs } from './clusterSizing.ts';

const base: SizingInputs = {
  ingestLinksPerSecond: 1e5,
  opsPerSecond: 0,
  logicalBytes: 1e12,
  splits: 1_000,
  processorCpuMicrosPerLink: 500,
  cassandraCpuMicrosPerLink: 500,
  kafkaCpuMicrosPerLink: 40,
  cassandraWritesPerLink: 4,
  cassandraReadsPerLink: 2,
  linksPerSecondPerInputPartition: 1_000,
  cassandraCpuMicrosPerOp: 2_000,
  serverCpuMicrosPerOp: 1_000,
  cassandraWritesPerOp: 2,
  cassandraReadsPerOp: 3,
  onDiskPerLogicalByte: 1.3,
  cassandraCoresPerNode: 16,
  cassandraDiskBytesPerNode: 4e12,
  maxDiskFill: 0.5,
  targetCpuUtilization: 0.5,
  processorCoresPerInstance: 1,
  kafkaCoresPerBroker: 16,
  bloomBytesPerSplit: 1.5,
  directoryReloadMicrosPerSplit: 7,
  directoryHeapMiB: 5,
  wideRowRecordBytes: 1_000,
  directoryRebuildMs: 600_000,
};

describe('replicationCpuFactor', () => {
  it('is 3 for writes (every replica applies one) and 2 for LOCAL_QUORUM reads', () => {
    expect(replicationCpuFactor(1, 0)).toBe(3);
    expect(replicationCpuFactor(0, 1)).toBe(2);
    expect(replicationCpuFactor(4, 2)).toBeCloseTo(16 / 6, 12);
  });
});

describe('sizeCluster', () => {
  it('works the arithmetic through for one load', () => {
    const s = sizeCluster(base);
    expect(s.processorInstances).toBe(100); // 1e5 × 500 µs / 0.5
    expect(s.inputPartitions).toBe(100);
    // 1e5 × 500 µs × 16/6 = 133.3 cores / (16 × 0.5) → 17 nodes
    expect(s.cassandraNodesForCpu).toBe(17);
    expect(s.diskBytes).toBeCloseTo(1e12 * 1.3 * 3, 0);
    expect(s.cassandraNodesForDisk).toBe(2);
    expect(s.cassandraNodes).toBe(17);
    expect(s.directoryBloomBytes).toBe(1_500);
  });

  it('never shrinks as the load or the data grow, and keeps at least 3 nodes and brokers', () => {
    fc.assert(
      fc.property(fc.double({ min: 1, max: 1e8, noNaN: true }), fc.double({ min: 0, max: 1e8, noNaN: true }), fc.double({ min: 1e6, max: 1e17, noNaN: true }), fc.double({ min: 1, max: 10, noNaN: true }), (ingest, ops, data, more) => {
        const a = sizeCluster({ ...base, ingestLinksPerSecond: ingest, opsPerSecond: ops, logicalBytes: data });
        const b = sizeCluster({ ...base, ingestLinksPerSecond: ingest * more, opsPerSecond: ops * more, logicalBytes: data * more });
        for (const k of ['processorInstances', 'inputPartitions', 'kafkaBrokers', 'serverInstances', 'cassandraNodes'] as const) expect(b[k]).toBeGreaterThanOrEqual(a[k]);
        expect(a.cassandraNodes).toBeGreaterThanOrEqual(3);
        expect(a.kafkaBrokers).toBeGreaterThanOrEqual(3);
        expect(a.inputPartitions).toBeGreaterThanOrEqual(a.processorInstances);
      }),
    );
  });
});
