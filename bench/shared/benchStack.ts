import type cassandra from 'cassandra-driver';
import { cassandraNodes, clusterDown, clusterEndpoints, clusterProjectConfig, clusterUp, kafkaNodes, loadClusterStackConfig } from '../../stack/clusterStack.ts';
import type { StackEndpoints, StackSource } from '../../stack/endpoints.ts';
import { readRecord, type Log } from '../../stack/localStack.ts';
import { resolveStack } from '../../stack/resolveStack.ts';
import type { ProcessPids } from '../ingest/procStats.ts';
import { describeDurability, SINGLE_NODE_DURABILITY, type BenchDurability } from './benchDurability.ts';
import { serverPidsOf } from './benchEnvironment.ts';
import { rawClientOptions } from './rawKeyspace.ts';
import type { StackChoice } from './stackChoice.ts';

/** What a result JSON records about the stack a bench ran on. */
export interface StackLabel {
  readonly stack: StackChoice;
  readonly source: StackSource;
  readonly cassandraNodes: number;
  readonly kafkaBrokers: number;
  readonly durability: BenchDurability;
  /** One line: "cluster: 3 Cassandra nodes, 3 Kafka brokers; NetworkTopologyStrategy {datacenter1: 3}, …". */
  readonly summary: string;
}

/** The stack a bench runs on and the durability every keyspace, topic and raw-driver query of the run takes from it. */
export interface BenchStack {
  readonly endpoints: StackEndpoints;
  readonly durability: BenchDurability;
  readonly label: StackLabel;
  /** cassandra-driver options for the bench's own clients (rawClientOptions: the store's read level by default). */
  cqlOptions(extra?: cassandra.ClientOptions): cassandra.ClientOptions;
  /** The servers' pids as cassandra, kafka and registry (a cluster's nodes grouped), read anew each call: a restarted server has a new pid. */
  serverPids(): ProcessPids;
  /** Stops what opening started (see openBenchStack); leaves a stack that was already running alone. */
  release(): Promise<void>;
}

export const stackLabel = (stack: StackChoice, endpoints: StackEndpoints, durability: BenchDurability): StackLabel => {
  const cassandraNodes = endpoints.cassandraContactPoints.length;
  const kafkaBrokers = endpoints.kafkaBrokers.length;
  return { stack, source: endpoints.source, cassandraNodes, kafkaBrokers, durability, summary: `${stack}: ${cassandraNodes} Cassandra node${cassandraNodes === 1 ? '' : 's'}, ${kafkaBrokers} Kafka broker${kafkaBrokers === 1 ? '' : 's'}; ${describeDurability(durability)}` };
};

/**
 * `single`: the stack every command finds (resolveStack: env, Docker, the local JVM stack),
 * at RF 1; `keepRunning` as resolveStack takes it. `cluster`: the local 3-node cluster
 * (clusterUp: started if needed, found if running), at its RF 3, LOCAL_QUORUM and
 * min.insync.replicas 2 (clusterProjectConfig); a cluster this call started is stopped by
 * `release` unless EDGESTREAM_KEEP_STACK=1 (seven JVMs are too much to leave behind on a small box).
 */
export async function openBenchStack(choice: StackChoice, o: { readonly log: Log; readonly keepRunning?: boolean; readonly env?: NodeJS.ProcessEnv }): Promise<BenchStack> {
  const env = o.env ?? process.env;
  if (choice === 'single') {
    const resolved = await resolveStack({ log: o.log, keepRunning: o.keepRunning ?? false, env });
    return benchStack('single', resolved.endpoints, SINGLE_NODE_DURABILITY, () => serverPidsOf(resolved.endpoints), resolved.release);
  }
  const config = loadClusterStackConfig(env);
  const up = await clusterUp(config, o.log);
  o.log(up.started.length > 0 ? `local cluster up in ${(up.elapsedMs / 1000).toFixed(1)} s (started ${up.started.join(', ')})` : 'local cluster already running');
  const project = clusterProjectConfig(config);
  const pid = (name: string) => readRecord(config, name)?.pid;
  const pidsOf = (servers: readonly { name: string }[]) => servers.map((s) => pid(s.name)).filter((p): p is number => p !== undefined);
  return benchStack(
    'cluster',
    clusterEndpoints(config),
    { topics: project.topics, cassandra: project.cassandra },
    () => ({ cassandra: pidsOf(cassandraNodes), kafka: pidsOf(kafkaNodes), registry: pid('registry') }),
    async () => {
      if (up.started.length > 0 && env['EDGESTREAM_KEEP_STACK'] !== '1') await clusterDown(config, o.log);
    },
  );
}

function benchStack(choice: StackChoice, endpoints: StackEndpoints, durability: BenchDurability, serverPids: () => ProcessPids, release: () => Promise<void>): BenchStack {
  return { endpoints, durability, label: stackLabel(choice, endpoints, durability), cqlOptions: (extra) => rawClientOptions(endpoints, durability, extra), serverPids, release };
}

