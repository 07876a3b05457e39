import { clusterProjectConfig, clusterUp, loadClusterStackConfig } from '../stack/clusterStack.ts';
import { defaultEdgestreamConfig, parseEdgestreamConfig, type EdgestreamConfig, type EdgestreamConfigInput } from '../schemas/config/edgestreamConfig.ts';

/**
 * `--cluster`: the command runs on the local 3-node cluster (`npm run stack:up -- --cluster`,
 * started here if it is not running): the config gets the cluster's `cluster` section, RF 3
 * (NetworkTopologyStrategy), LOCAL_QUORUM/LOCAL_SERIAL and 3 replicas with min.insync.replicas 2
 * for every topic. A config that already says where its cluster is, or how to replicate, is
 * refused rather than silently overridden.
 */
export function withLocalCluster(input: EdgestreamConfigInput | undefined, source: string): EdgestreamConfig {
  const overlay = clusterProjectConfig(loadClusterStackConfig());
  const base = input ?? { edgeTypes: defaultEdgestreamConfig().edgeTypes };
  const clashes = [
    base.cluster && 'cluster',
    base.cassandra?.replication && 'cassandra.replication',
    base.cassandra?.replicationFactor !== undefined && 'cassandra.replicationFactor',
    base.topics?.replicationFactor !== undefined && 'topics.replicationFactor',
    base.topics?.minInsyncReplicas !== undefined && 'topics.minInsyncReplicas',
  ].filter((c): c is string => typeof c === 'string');
  if (clashes.length > 0) {
    throw new Error(`--cluster sets ${clashes.join(', ')} for the local cluster, and ${source} sets them too: drop --cluster or those fields`);
  }
  return parseEdgestreamConfig({
    ...base,
    cluster: overlay.cluster,
    cassandra: { ...base.cassandra, ...overlay.cassandra, consistency: { ...overlay.cassandra.consistency, ...base.cassandra?.consistency } },
    topics: { ...base.topics, ...overlay.topics },
  }, `${source} on the local cluster`);
}

/** Brings the local cluster up (idempotent: a running one is left as it is). */
export async function ensureLocalCluster(log: (line: string) => void): Promise<void> {
  const up = await clusterUp(loadClusterStackConfig(), log);
  log(up.started.length ? `local cluster up in ${(up.elapsedMs / 1000).toFixed(1)} s (started ${up.started.join(', ')})` : 'local cluster already running');
}
