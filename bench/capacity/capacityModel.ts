/**
 * The capacity model: a graph's scale and load in, per-namespace sizes, splits, split directory,
 * Kafka, processors, Cassandra and traversal fan-out out. Pure; the calibration (measured and
 * assumed figures) is an argument, loaded by loadCalibration.
 */
import type { Calibration } from './calibration.ts';
import { sizeCluster, type Sizing } from './clusterSizing.ts';
import { dirtyWritesPerShardPerSecond, namespaceSizes, type NamespaceSize, type WideSettings } from './namespaceSizes.ts';
import { traversalFanOut, type HopFanOut } from './traversalFanOut.ts';
import { sizeBiasedMeanDegree, zipfDegrees, type ZipfDegrees } from './zipfDegrees.ts';

export interface Scale {
  readonly vertices: number;
  readonly edges: number;
  /** Zipf exponent of in-degrees (targets). */
  readonly zipfIn: number;
  /** Zipf exponent of out-degrees (sources). */
  readonly zipfOut: number;
  readonly ingestLinksPerSecond: number;
  /** LinkBench-mix operations per second through the server (bench:mixed's mix). */
  readonly opsPerSecond: number;
  readonly propsPerEdge: number;
  readonly hops: number;
  readonly perHopCap: number;
}

export interface CapacityEstimate {
  readonly scale: Scale;
  readonly degrees: { readonly meanOut: number; readonly largestIn: number; readonly largestOut: number; readonly reachedDegree: number };
  readonly namespaces: NamespaceSize[];
  readonly totals: { readonly partitions: number; readonly logicalBytes: number; readonly splits: number; readonly buckets: number; readonly rowsInWide: number };
  readonly split: { readonly largestPartitionSeconds: number; readonly allWideChainHours: number };
  readonly degreeDirtyWritesPerShardPerSecond: number;
  readonly sizing: Sizing;
  readonly traversal: { readonly singleNode: HopFanOut[]; readonly cluster: HopFanOut[] };
  /** Where the Zipf head leaves what a simple graph allows: the estimate is then an upper bound. */
  readonly warnings: string[];
}

/** A vertex has at most V − 1 distinct peers; a steeper head than that is a generator artefact. */
export function headWarnings(out: ZipfDegrees, inn: ZipfDegrees): string[] {
  return [
    ...(inn.top >= inn.vertices ? [`the largest in-degree (${Math.round(inn.top)}) exceeds the vertices: lower --zipf`] : []),
    ...(out.top >= out.vertices ? [`the largest out-degree (${Math.round(out.top)}) exceeds the vertices: lower --zipf-out`] : []),
  ];
}

export function estimateCapacity(scale: Scale, wide: WideSettings, c: Calibration): CapacityEstimate {
  const out = zipfDegrees(scale.vertices, scale.edges, scale.zipfOut);
  const inn = zipfDegrees(scale.vertices, scale.edges, scale.zipfIn);
  const namespaces = namespaceSizes(
    { out, in: inn, propsPerEdge: scale.propsPerEdge, ingestLinksPerSecond: scale.ingestLinksPerSecond },
    {
      linkRowBytes: c.linkRowBytes.value,
      recentRowBytes: c.recentRowBytes.value,
      propsRowBytes: c.propsRowBytes.value,
      degreesRowBytes: c.degreesRowBytes.value,
      partitionOverheadBytes: c.partitionOverheadBytes.value,
      wideRowRecordBytes: c.wideRowRecordBytes.value,
    },
    wide,
  );
  const splittable = namespaces.filter((n) => n.splits);
  const sum = (f: (n: NamespaceSize) => number, of = namespaces) => of.reduce((a, n) => a + f(n), 0);
  const splits = sum((n) => n.splits?.widePartitions ?? 0, splittable);
  const perRowSeconds = (n: NamespaceSize) => (n.strategy === 'hash' ? c.splitSecondsPerMillionRowsHash.value : c.splitSecondsPerMillionRowsRange.value) / 1e6;
  const largestSplit = Math.max(0, ...splittable.map((n) => ((n.splits?.widePartitions ?? 0) > 0 ? (n.largestPartitionBytes / (n.strategy === 'hash' ? c.linkRowBytes.value : c.recentRowBytes.value)) * perRowSeconds(n) : 0)));
  const logicalBytes = sum((n) => n.logicalBytes);
  const sizing = sizeCluster({
    ingestLinksPerSecond: scale.ingestLinksPerSecond,
    opsPerSecond: scale.opsPerSecond,
    logicalBytes,
    splits,
    processorCpuMicrosPerLink: c.processorCpuMicrosPerLink.value,
    cassandraCpuMicrosPerLink: c.cassandraCpuMicrosPerLink.value,
    kafkaCpuMicrosPerLink: c.kafkaCpuMicrosPerLink.value,
    cassandraWritesPerLink: c.cassandraWritesPerLink.value,
    cassandraReadsPerLink: c.cassandraReadsPerLink.value,
    linksPerSecondPerInputPartition: c.linksPerSecondPerInputPartition.value,
    cassandraCpuMicrosPerOp: c.cassandraCpuMicrosPerOp.value,
    serverCpuMicrosPerOp: c.serverCpuMicrosPerOp.value,
    cassandraWritesPerOp: c.cassandraWritesPerOp.value,
    cassandraReadsPerOp: c.cassandraReadsPerOp.value,
    onDiskPerLogicalByte: c.onDiskPerLogicalByte.value,
    cassandraCoresPerNode: c.cassandraCoresPerNode.value,
    cassandraDiskBytesPerNode: c.cassandraDiskBytesPerNode.value,
    maxDiskFill: c.maxDiskFill.value,
    targetCpuUtilization: c.targetCpuUtilization.value,
    processorCoresPerInstance: c.processorCoresPerInstance.value,
    kafkaCoresPerBroker: c.kafkaCoresPerBroker.value,
    bloomBytesPerSplit: c.bloomBytesPerSplit.value,
    directoryReloadMicrosPerSplit: c.directoryReloadMicrosPerSplit.value,
    directoryHeapMiB: c.directoryHeapMiB.value,
    wideRowRecordBytes: c.wideRowRecordBytes.value,
    directoryRebuildMs: wide.directoryRebuildMs,
  });
  const reachedDegree = sizeBiasedMeanDegree(out);
  const hops = (replicaGroups: number) =>
    traversalFanOut({ hops: scale.hops, perHopCap: scale.perHopCap, startDegree: reachedDegree, reachedDegree, replicaGroups });
  return {
    scale,
    degrees: { meanOut: scale.edges / scale.vertices, largestIn: inn.top, largestOut: out.top, reachedDegree },
    namespaces,
    totals: {
      partitions: sum((n) => n.partitions),
      logicalBytes,
      splits,
      buckets: sum((n) => n.splits?.buckets ?? 0, splittable),
      rowsInWide: sum((n) => n.splits?.rowsInWide ?? 0, splittable),
    },
    split: { largestPartitionSeconds: largestSplit, allWideChainHours: sum((n) => (n.splits?.rowsInWide ?? 0) * perRowSeconds(n), splittable) / 3600 },
    degreeDirtyWritesPerShardPerSecond: dirtyWritesPerShardPerSecond(scale.ingestLinksPerSecond),
    sizing,
    traversal: { singleNode: hops(1), cluster: hops(sizing.cassandraNodes * c.vnodesPerNode.value) },
    warnings: headWarnings(out, inn),
  };
}
