/**
 * The inputs of the capacity model, each with where it comes from: a committed benchmark result
 * (file, commit, field) or an assumption and why. The report prints them all, so a reader can
 * tell which figures are this project's measurements and which are ours to argue with.
 */

export interface Figure {
  readonly value: number;
  readonly unit: string;
  readonly measured: boolean;
  /** Measured: `bench/results/<file> @ <commit>: <field>`; assumed: the reason. */
  readonly basis: string;
}

export const measured = (value: number, unit: string, basis: string): Figure => ({ value, unit, measured: true, basis });
export const assumed = (value: number, unit: string, basis: string): Figure => ({ value, unit, measured: false, basis });

export interface Calibration {
  /** Which measured workload the per-link CPU comes from. */
  readonly profile: 'mixed' | 'ingest';
  // Per ingested link (one ADD_EDGE), single node, RF 1.
  readonly processorCpuMicrosPerLink: Figure;
  readonly cassandraCpuMicrosPerLink: Figure;
  readonly kafkaCpuMicrosPerLink: Figure;
  readonly cassandraWritesPerLink: Figure;
  readonly cassandraReadsPerLink: Figure;
  /** What one input partition drained when every event had one source (bench:hot): a floor on a partition's rate. */
  readonly linksPerSecondPerInputPartition: Figure;
  // Per LinkBench-mix operation through the server (bench:mixed).
  readonly cassandraCpuMicrosPerOp: Figure;
  readonly serverCpuMicrosPerOp: Figure;
  readonly cassandraWritesPerOp: Figure;
  readonly cassandraReadsPerOp: Figure;
  // Row sizes: key + value bytes as the split planner counts them (bench:wide).
  readonly linkRowBytes: Figure;
  readonly recentRowBytes: Figure;
  // The split chain (bench:wide, 1 M-row partitions on the 2-core box).
  readonly splitSecondsPerMillionRowsHash: Figure;
  readonly splitSecondsPerMillionRowsRange: Figure;
  readonly wideRowRecordBytes: Figure;
  // The split directory (bench:directory at 1 M records).
  readonly bloomBytesPerSplit: Figure;
  readonly directoryReloadMicrosPerSplit: Figure;
  readonly directoryHeapMiB: Figure;
  // Assumptions.
  readonly propsRowBytes: Figure;
  readonly degreesRowBytes: Figure;
  readonly partitionOverheadBytes: Figure;
  readonly onDiskPerLogicalByte: Figure;
  readonly cassandraCoresPerNode: Figure;
  readonly cassandraDiskBytesPerNode: Figure;
  readonly maxDiskFill: Figure;
  readonly targetCpuUtilization: Figure;
  readonly processorCoresPerInstance: Figure;
  readonly kafkaCoresPerBroker: Figure;
  readonly vnodesPerNode: Figure;
}

/** Every figure of a calibration, in report order. */
export function calibrationFigures(c: Calibration): [string, Figure][] {
  return Object.entries(c).filter((e): e is [string, Figure] => typeof e[1] === 'object');
}
