import type { ConsistencyLevel, Replication } from './cassandraStoreConfig.ts';

/**
 * Whether a read at `read` is sure to see a write acknowledged at `write`:
 * their replica sets must overlap (R + W > RF) whichever replicas answer.
 * The fan-out reads a link before it writes the next op of the same edge and
 * trusts what it read (docs/architecture.md §4 "Consistency levels"), so at
 * ONE with three replicas it can miss the previous op's link and leave a
 * wrong exact index entry, silently.
 *
 * LOCAL_* levels count replicas of `localDataCenter` only; the others count
 * every data center's. A global level is sure to reach only as many local
 * replicas as it needs beyond all the remote ones. SimpleStrategy ignores data
 * centers: every replica counts as local (Cassandra's LOCAL_QUORUM is then a
 * quorum of the replication factor). Decided from the configured replication,
 * which is what `init` creates; an existing keyspace keeps its own.
 *
 * Returns why the pair does not overlap, or undefined when it does.
 */
export function quorumOverlapProblem(
  levels: { readonly read: ConsistencyLevel; readonly write: ConsistencyLevel },
  replication: Replication,
  localDataCenter: string,
): string | undefined {
  const total = replication.class === 'SimpleStrategy' ? replication.replicationFactor : Object.values(replication.dataCenters).reduce((a, b) => a + b, 0);
  const local = replication.class === 'SimpleStrategy' ? total : (replication.dataCenters[localDataCenter] ?? 0);
  const read = acknowledgements(levels.read, total, local);
  const write = acknowledgements(levels.write, total, local);
  const overlaps =
    !read.local && !write.local
      ? read.count + write.count > total
      : inLocal(read, total, local) + inLocal(write, total, local) > local;
  if (overlaps) return undefined;
  const pair = levels.read === levels.write ? levels.read : `${levels.read} reads with ${levels.write} writes`;
  const where =
    replication.class === 'SimpleStrategy'
      ? `replication factor ${total}`
      : `replication ${JSON.stringify(replication.dataCenters)} (localDataCenter ${localDataCenter})`;
  return `${pair} cannot be used with ${where}: the fan-out's read-before-write needs read and write quorums that overlap (R + W > RF)`;
}

interface Acknowledgements {
  /** Counted among the local data center's replicas only. */
  readonly local: boolean;
  readonly count: number;
}

function acknowledgements(level: ConsistencyLevel, total: number, local: number): Acknowledgements {
  switch (level) {
    case 'LOCAL_ONE':
      return { local: true, count: 1 };
    case 'LOCAL_QUORUM':
      return { local: true, count: Math.floor(local / 2) + 1 };
    case 'ONE':
      return { local: false, count: 1 };
    case 'QUORUM':
      return { local: false, count: Math.floor(total / 2) + 1 };
    case 'ALL':
      return { local: false, count: total };
  }
}

/** Local replicas an acknowledgement set is sure to include, however the remote ones answer. */
const inLocal = (a: Acknowledgements, total: number, local: number): number => (a.local ? a.count : Math.max(0, a.count - (total - local)));
