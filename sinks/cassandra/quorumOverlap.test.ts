import { describe, expect, it } from 'vitest';
import { CONSISTENCY_LEVELS, type ConsistencyLevel, type Replication } from './cassandraStoreConfig.ts';
import { quorumOverlapProblem } from './quorumOverlap.ts';

/**
 * The model: replicas are listed one by one with their data center; a level is
 * acknowledged by any set of the replicas it may count (the local data
 * center's for LOCAL_*, all otherwise) of the size it needs. A read is sure to
 * see a write iff no acknowledged read set misses every replica of an
 * acknowledged write set.
 */
function overlapsByEnumeration(read: ConsistencyLevel, write: ConsistencyLevel, dcs: readonly boolean[]): boolean {
  const total = dcs.length;
  const local = dcs.filter((isLocal) => isLocal).length;
  const needs = (level: ConsistencyLevel) =>
    ({ ONE: 1, LOCAL_ONE: 1, QUORUM: Math.floor(total / 2) + 1, LOCAL_QUORUM: Math.floor(local / 2) + 1, ALL: total })[level];
  const acknowledges = (level: ConsistencyLevel, set: number) => {
    const members = dcs.flatMap((isLocal, i) => ((set >> i) & 1 ? [isLocal] : []));
    return members.length === needs(level) && (!level.startsWith('LOCAL_') || members.every((isLocal) => isLocal));
  };
  for (let r = 0; r < 1 << total; r++) {
    if (!acknowledges(read, r)) continue;
    for (let w = 0; w < 1 << total; w++) if (acknowledges(write, w) && (r & w) === 0) return false;
  }
  return true;
}

const replications: { replication: Replication; dcs: boolean[] }[] = [
  ...[1, 2, 3, 4, 5].map((rf) => ({ replication: { class: 'SimpleStrategy', replicationFactor: rf } as const, dcs: Array<boolean>(rf).fill(true) })),
  ...[0, 1, 2, 3].flatMap((here) =>
    [0, 1, 2, 3].filter((there) => here + there > 0).map((there) => ({
      replication: { class: 'NetworkTopologyStrategy', dataCenters: { ...(here ? { dc1: here } : {}), ...(there ? { dc2: there } : {}) } } as const,
      dcs: [...Array<boolean>(here).fill(true), ...Array<boolean>(there).fill(false)],
    })),
  ),
];

describe('quorumOverlapProblem', () => {
  it('agrees with an enumeration of every acknowledging replica set, for every read/write level pair and small replication', () => {
    for (const { replication, dcs } of replications) {
      for (const read of CONSISTENCY_LEVELS) {
        for (const write of CONSISTENCY_LEVELS) {
          const got = quorumOverlapProblem({ read, write }, replication, 'dc1') === undefined;
          expect({ replication, read, write, overlaps: got }).toEqual({ replication, read, write, overlaps: overlapsByEnumeration(read, write, dcs) });
        }
      }
    }
  });

  it('says which level, which replication and why', () => {
    expect(quorumOverlapProblem({ read: 'ONE', write: 'ONE' }, { class: 'SimpleStrategy', replicationFactor: 3 }, 'dc1')).toBe(
      "ONE cannot be used with replication factor 3: the fan-out's read-before-write needs read and write quorums that overlap (R + W > RF)",
    );
    expect(quorumOverlapProblem({ read: 'LOCAL_ONE', write: 'LOCAL_QUORUM' }, { class: 'NetworkTopologyStrategy', dataCenters: { dc1: 3, dc2: 3 } }, 'dc1')).toMatch(
      /^LOCAL_ONE reads with LOCAL_QUORUM writes cannot be used with replication \{"dc1":3,"dc2":3\} \(localDataCenter dc1\): /,
    );
  });
});
