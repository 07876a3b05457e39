import { CLUSTER_MIN_INSYNC_REPLICAS, CLUSTER_REPLICATION_FACTOR, loadClusterStackConfig } from '../../stack/clusterStack.ts';
import type { StackConfig } from '../../stack/stackConfig.ts';
import type { EdgestreamConfigInput } from '../../schemas/config/edgestreamConfig.ts';

/** Replication and consistency of a test env in place of RF 1, and the runtime timings that fit them. */
export interface StackDurability {
  readonly topics: { readonly replicationFactor: number; readonly minInsyncReplicas: number };
  readonly cassandra: Pick<NonNullable<EdgestreamConfigInput['cassandra']>, 'replication' | 'consistency'>;
  readonly runtime?: NonNullable<EdgestreamConfigInput['runtime']>;
}

/** What the local cluster runs at: RF 3 per data centre, LOCAL_QUORUM, LOCAL_SERIAL, min.insync.replicas 2. */
export const clusterDurability: StackDurability = {
  topics: { replicationFactor: CLUSTER_REPLICATION_FACTOR, minInsyncReplicas: CLUSTER_MIN_INSYNC_REPLICAS },
  cassandra: {
    replication: { class: 'NetworkTopologyStrategy', dataCenters: { datacenter1: CLUSTER_REPLICATION_FACTOR } },
    consistency: { writes: 'LOCAL_QUORUM', reads: 'LOCAL_QUORUM', serial: 'LOCAL_SERIAL' },
  },
  // Seven JVMs and the processors share 2 cores: a quorum write can take seconds, and a write
  // whose coordinator dies is retried on another node within the budget. A session outlives a
  // busy event loop. cascadeSettleMs > 2 × (budget + landing margin 2 s) + ttl (edgestreamConfig's rule).
  runtime: { writeRetryBudgetMs: 5_000, cascadeSettleMs: 15_000, sessionTimeoutMs: 15_000, repairMaxAttempts: 40, repairMaxBackoffMs: 8_000 },
};

/** The stack config of the cluster that test/support/clusterGlobalSetup.ts brought up (its nodes' pids, dirs and ports). */
export function clusterStackConfig(): StackConfig {
  return loadClusterStackConfig();
}
