/**
 * Machines for a target load: processor instances, Kafka input partitions and brokers, server
 * instances, Cassandra nodes (the larger of what CPU and disk need at RF 3), and the split
 * directory every reader and writer holds. Per-core costs are measured on one node at RF 1;
 * the replication factor is applied here (see `replicationCpuFactor`).
 */

export const CASSANDRA_REPLICATION = 3;
export const KAFKA_REPLICATION = 3;
/** The fewest nodes of a replicated cluster. */
const MIN_NODES = 3;

export interface SizingInputs {
  readonly ingestLinksPerSecond: number;
  readonly opsPerSecond: number;
  /** Logical bytes of every namespace (one copy). */
  readonly logicalBytes: number;
  readonly splits: number;
  readonly processorCpuMicrosPerLink: number;
  readonly cassandraCpuMicrosPerLink: number;
  readonly kafkaCpuMicrosPerLink: number;
  readonly cassandraWritesPerLink: number;
  readonly cassandraReadsPerLink: number;
  readonly linksPerSecondPerInputPartition: number;
  readonly cassandraCpuMicrosPerOp: number;
  readonly serverCpuMicrosPerOp: number;
  readonly cassandraWritesPerOp: number;
  readonly cassandraReadsPerOp: number;
  readonly onDiskPerLogicalByte: number;
  readonly cassandraCoresPerNode: number;
  readonly cassandraDiskBytesPerNode: number;
  readonly maxDiskFill: number;
  readonly targetCpuUtilization: number;
  readonly processorCoresPerInstance: number;
  readonly kafkaCoresPerBroker: number;
  readonly bloomBytesPerSplit: number;
  readonly directoryReloadMicrosPerSplit: number;
  readonly directoryHeapMiB: number;
  /** wide_rows bytes a full reload pages (every record), and how often each process reloads. */
  readonly wideRowRecordBytes: number;
  readonly directoryRebuildMs: number;
}

export interface Sizing {
  readonly processorInstances: number;
  readonly inputPartitions: number;
  readonly kafkaBrokers: number;
  readonly serverInstances: number;
  readonly cassandraCores: number;
  readonly cassandraNodesForCpu: number;
  readonly cassandraNodesForDisk: number;
  readonly cassandraNodes: number;
  /** Bytes on disk across the cluster, every replica. */
  readonly diskBytes: number;
  readonly diskBytesPerNode: number;
  readonly directoryBloomBytes: number;
  readonly directoryHeapBytes: number;
  readonly directoryReloadSeconds: number;
  /** What every processor and server reading all of wide_rows each `directoryRebuildMs` costs the cluster. */
  readonly directoryReloadBytesPerSecond: number;
}

/**
 * CPU at RF 3 over CPU at RF 1 for a mix of statements: every replica applies a write, and a
 * LOCAL_QUORUM read reads two replicas (assumed proportional; coordinator work is not split out).
 */
export function replicationCpuFactor(writes: number, reads: number): number {
  const total = writes + reads;
  if (total === 0) return 1;
  return (writes * CASSANDRA_REPLICATION + reads * Math.floor(CASSANDRA_REPLICATION / 2 + 1)) / total;
}

export function sizeCluster(i: SizingInputs): Sizing {
  const util = i.targetCpuUtilization;
  const processorCores = (i.ingestLinksPerSecond * i.processorCpuMicrosPerLink) / 1e6 / util;
  const processorInstances = Math.max(1, Math.ceil(processorCores / i.processorCoresPerInstance));
  const inputPartitions = Math.max(processorInstances, Math.ceil(i.ingestLinksPerSecond / i.linksPerSecondPerInputPartition));
  const kafkaCores = (i.ingestLinksPerSecond * i.kafkaCpuMicrosPerLink * KAFKA_REPLICATION) / 1e6 / util;
  const kafkaBrokers = Math.max(MIN_NODES, Math.ceil(kafkaCores / i.kafkaCoresPerBroker));
  const serverInstances = i.opsPerSecond === 0 ? 0 : Math.ceil((i.opsPerSecond * i.serverCpuMicrosPerOp) / 1e6 / util / i.processorCoresPerInstance);
  const cassandraCores =
    (i.ingestLinksPerSecond * i.cassandraCpuMicrosPerLink * replicationCpuFactor(i.cassandraWritesPerLink, i.cassandraReadsPerLink) +
      i.opsPerSecond * i.cassandraCpuMicrosPerOp * replicationCpuFactor(i.cassandraWritesPerOp, i.cassandraReadsPerOp)) /
    1e6;
  const cassandraNodesForCpu = Math.ceil(cassandraCores / (i.cassandraCoresPerNode * util));
  const diskBytes = i.logicalBytes * i.onDiskPerLogicalByte * CASSANDRA_REPLICATION;
  const cassandraNodesForDisk = Math.ceil(diskBytes / (i.cassandraDiskBytesPerNode * i.maxDiskFill));
  const cassandraNodes = Math.max(MIN_NODES, cassandraNodesForCpu, cassandraNodesForDisk);
  const directoryBloomBytes = i.splits * i.bloomBytesPerSplit;
  return {
    processorInstances,
    inputPartitions,
    kafkaBrokers,
    serverInstances,
    cassandraCores,
    cassandraNodesForCpu,
    cassandraNodesForDisk,
    cassandraNodes,
    diskBytes,
    diskBytesPerNode: diskBytes / cassandraNodes,
    directoryBloomBytes,
    directoryHeapBytes: directoryBloomBytes + i.directoryHeapMiB * 2 ** 20,
    directoryReloadSeconds: (i.splits * i.directoryReloadMicrosPerSplit) / 1e6,
    directoryReloadBytesPerSecond: ((processorInstances + serverInstances) * i.splits * i.wideRowRecordBytes) / (i.directoryRebuildMs / 1000),
  };
}
