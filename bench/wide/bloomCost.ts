import type { SplitDirectory } from '../../sinks/wide/index.ts';
import { round } from '../ingest/stats.ts';

export interface BloomCost {
  readonly calls: number;
  /** ns per `mightHaveRecord` for partitions that are not split (the common case: every read and write asks). */
  readonly missNsPerCall: number;
  /** ns per call for the split partitions (a filter hit; the record lookup that follows is not included). */
  readonly hitNsPerCall: number;
  /** Unsplit partitions the filter answered "maybe" for (would cost a cached record lookup). */
  readonly falsePositives: number;
  readonly falsePositiveRate: number;
  readonly records: number;
  readonly filterBits: number;
  readonly filterBytes: number;
}

const DISTINCT_IDS = 4_096;

/**
 * Times the split directory's in-memory check over `calls` calls: first for
 * ids that were never split (4 096 distinct vertex ids, cycled, across the
 * splittable namespaces), then for the split partitions themselves. The ids
 * are built before the clock starts; the key concatenation inside
 * `mightHaveRecord` is part of the cost, as it is for every reader.
 */
export function measureBloomCost(directory: SplitDirectory, namespaces: readonly string[], split: readonly { namespace: string; partitionId: string }[], calls: number): BloomCost {
  const timed = timeMembershipChecks((ns, id) => directory.mightHaveRecord(ns, id), namespaces, split, calls);
  return {
    calls,
    ...timed,
    records: directory.stats.records,
    filterBits: directory.stats.filterBits,
    filterBytes: Math.ceil(directory.stats.filterBits / 8),
  };
}

export type MembershipTiming = Pick<BloomCost, 'missNsPerCall' | 'hitNsPerCall' | 'falsePositives' | 'falsePositiveRate'>;

/** Times any `(namespace, id) → maybe split?` check the same way (the directory, or a baseline beside it). */
export function timeMembershipChecks(
  check: (namespace: string, partitionId: string) => boolean,
  namespaces: readonly string[],
  split: readonly { namespace: string; partitionId: string }[],
  calls: number,
): MembershipTiming {
  const ids = Array.from({ length: DISTINCT_IDS }, (_, i) => `user-${(i * 7_919) % 1_000_003}`);
  let falsePositives = 0;
  const nsCount = namespaces.length;
  // Warm up the JIT on both paths.
  for (let i = 0; i < 20_000; i++) check(namespaces[i % nsCount] as string, ids[i % DISTINCT_IDS] as string);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) {
    if (check(namespaces[i % nsCount] as string, ids[i % DISTINCT_IDS] as string)) falsePositives++;
  }
  const missNs = Number(process.hrtime.bigint() - t0) / calls;
  let hitNs = Number.NaN;
  if (split.length > 0) {
    const t1 = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) {
      const s = split[i % split.length] as { namespace: string; partitionId: string };
      check(s.namespace, s.partitionId);
    }
    hitNs = Number(process.hrtime.bigint() - t1) / calls;
  }
  return {
    missNsPerCall: round(missNs, 1),
    hitNsPerCall: round(hitNs, 1),
    // Each distinct (namespace, id) pair is either a false positive every time or never.
    falsePositives,
    falsePositiveRate: round(falsePositives / calls, 5),
  };
}
