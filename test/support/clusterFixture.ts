import { CLUSTER_MIN_INSYNC_REPLICAS, CLUSTER_REPLICATION_FACTOR, clusterDown, clusterEndpoints, clusterUp, loadClusterStackConfig } from '../../stack/clusterStack.ts';
import type { StackEndpoints } from '../../stack/endpoints.ts';
import type { StackConfig } from '../../stack/stackConfig.ts';
import type { EdgestreamEnvOptions } from './edgestreamEnv.ts';

export interface LocalClusterFixture {
  readonly stackConfig: StackConfig;
  readonly endpoints: StackEndpoints;
  /** What createEdgestreamEnv takes to run at the cluster's RF 3, LOCAL_QUORUM, min.insync.replicas 2. */
  readonly durability: NonNullable<EdgestreamEnvOptions['durability']>;
  /** How long `up` took (0 when it was already running). */
  readonly upMs: number;
  /** Stops the cluster if this fixture started it (unless EDGESTREAM_KEEP_STACK=1). */
  release(): Promise<void>;
}

/**
 * The local 3-node cluster for the cluster fault tests, brought up by the test itself (its own
 * dir and ports, beside the single-node stack of globalSetup). It never skips: if the cluster
 * cannot start, this throws with the reason and the log tails.
 */
export async function startLocalCluster(log: (line: string) => void): Promise<LocalClusterFixture> {
  const stackConfig = loadClusterStackConfig();
  const up = await clusterUp(stackConfig, log);
  const weStartedIt = up.started.length > 0;
  log(weStartedIt ? `cluster up in ${up.elapsedMs} ms (started ${up.started.join(', ')})` : 'cluster already running');
  return {
    stackConfig,
    endpoints: clusterEndpoints(stackConfig),
    durability: {
      topics: { replicationFactor: CLUSTER_REPLICATION_FACTOR, minInsyncReplicas: CLUSTER_MIN_INSYNC_REPLICAS },
      cassandra: {
        replication: { class: 'NetworkTopologyStrategy', dataCenters: { datacenter1: CLUSTER_REPLICATION_FACTOR } },
        consistency: { writes: 'LOCAL_QUORUM', reads: 'LOCAL_QUORUM', serial: 'LOCAL_SERIAL' },
      },
    },
    upMs: weStartedIt ? up.elapsedMs : 0,
    async release() {
      if (weStartedIt && process.env['EDGESTREAM_KEEP_STACK'] !== '1') await clusterDown(stackConfig, log);
    },
  };
}
