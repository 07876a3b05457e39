/** Bounds of a batch that spans partitions (Cassandra warns above both by default). */
export interface CrossPartitionLimits {
  /** Partitions per batch: `unlogged_batch_across_partitions_warn_threshold` is 10. */
  readonly maxPartitions: number;
  /** Statements per batch (`maxBatchStatements`), so the merged rows still go out as one batch. */
  readonly maxStatements: number;
  /** Estimated payload per batch: `batch_size_warn_threshold` is 5 KiB, `batch_size_fail_threshold` 50 KiB. */
  readonly maxBytes: number;
}

/** What the merge needs to know of one partition's write unit. */
export interface MergeCandidate {
  /** The partition's replica set (any string naming it), undefined when unknown: such a unit is never merged. */
  readonly replicaSet: string | undefined;
  readonly statementCount: number;
  readonly bytes: number;
}

/**
 * Token-aware batching: merges the write units of different partitions that
 * live on the same replica set into groups whose rows fit one unlogged batch
 * within `limits`. The driver routes a batch to a replica of its first
 * statement, so every partition of such a batch is local to its coordinator:
 * one request instead of one per partition, and no extra hop (the grouping
 * the Spark Cassandra Connector calls `replica_set`). A unit that alone
 * exceeds the limits, or whose replica set is unknown, stays on its own.
 * Units keep their relative order within a group; every unit appears in
 * exactly one group.
 */
export function mergeByReplicaSet<T extends MergeCandidate>(units: readonly T[], limits: CrossPartitionLimits): T[][] {
  const groups: T[][] = [];
  const open = new Map<string, { units: T[]; statements: number; bytes: number }>();
  for (const unit of units) {
    const fitsAlone = unit.statementCount <= limits.maxStatements && unit.bytes <= limits.maxBytes;
    if (unit.replicaSet === undefined || !fitsAlone || limits.maxPartitions <= 1) {
      groups.push([unit]);
      continue;
    }
    const current = open.get(unit.replicaSet);
    if (
      current !== undefined &&
      current.units.length < limits.maxPartitions &&
      current.statements + unit.statementCount <= limits.maxStatements &&
      current.bytes + unit.bytes <= limits.maxBytes
    ) {
      current.units.push(unit);
      current.statements += unit.statementCount;
      current.bytes += unit.bytes;
      continue;
    }
    const fresh = { units: [unit], statements: unit.statementCount, bytes: unit.bytes };
    groups.push(fresh.units);
    open.set(unit.replicaSet, fresh);
  }
  return groups;
}
