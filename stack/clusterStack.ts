import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import cassandra from 'cassandra-driver';
import type { StackEndpoints } from './endpoints.ts';
import { awaitReady, readRecord, stackDown, stackStatus, stackUp, startServer, type Log, type ServerStatus, type UpResult } from './localStack.ts';
import { isOurProcess } from './processControl.ts';
import { waitUntil } from './readiness.ts';
import { cassandraNodeServer, type CassandraNode } from './servers/cassandraServer.ts';
import { kafkaAnswers, kafkaNodeServer } from './servers/kafkaServer.ts';
import type { LocalServer } from './servers/localServer.ts';
import { registryServer, registryUrl } from './servers/registryServer.ts';
import { StackError } from './stackError.ts';
import { loadStackConfig, type StackConfig } from './stackConfig.ts';

/**
 * The local cluster (`npm run stack:up -- --cluster`): 3 Cassandra nodes and 3 combined
 * KRaft broker+controllers on 127.0.0.1, .2 and .3 (each address the same ports: the
 * whole 127/8 is loopback on Linux, no root needed) plus the registry, in its own run dir
 * and port range so it runs beside the single-node stack. The project runs on it at
 * RF 3, LOCAL_QUORUM and min.insync.replicas 2 (`clusterProjectConfig`).
 */

export const CLUSTER_ADDRESSES = ['127.0.0.1', '127.0.0.2', '127.0.0.3'] as const;
export const CLUSTER_REPLICATION_FACTOR = 3;
export const CLUSTER_MIN_INSYNC_REPLICAS = 2;

/** Murmur3 tokens spaced evenly: each node owns a third of the ring as primary. */
const TOKENS = ['-9223372036854775808', '-3074457345618258603', '3074457345618258602'] as const;

/**
 * The cluster's stack config: the single-node stack's, with its own defaults —
 * `EDGESTREAM_CLUSTER_DIR` (default `.stack-cluster`), `EDGESTREAM_CLUSTER_PORT_OFFSET`
 * (default 200) and smaller heaps (`EDGESTREAM_CLUSTER_{CASSANDRA,KAFKA,REGISTRY}_HEAP_MB`:
 * 384, 256, 256), since seven JVMs share the machine.
 */
export function loadClusterStackConfig(env: NodeJS.ProcessEnv = process.env, repoRoot = process.cwd()): StackConfig {
  const pick = (name: string, fallback: string) => (env[name] === undefined || env[name] === '' ? fallback : (env[name] as string));
  return loadStackConfig({
    ...env,
    EDGESTREAM_STACK_DIR: pick('EDGESTREAM_CLUSTER_DIR', path.join(repoRoot, '.stack-cluster')),
    EDGESTREAM_STACK_PORT_OFFSET: pick('EDGESTREAM_CLUSTER_PORT_OFFSET', '200'),
    EDGESTREAM_CASSANDRA_HEAP_MB: pick('EDGESTREAM_CLUSTER_CASSANDRA_HEAP_MB', '384'),
    EDGESTREAM_KAFKA_HEAP_MB: pick('EDGESTREAM_CLUSTER_KAFKA_HEAP_MB', '256'),
    EDGESTREAM_REGISTRY_HEAP_MB: pick('EDGESTREAM_CLUSTER_REGISTRY_HEAP_MB', '256'),
  }, repoRoot);
}

/** One KRaft cluster id per run dir: every broker formats with it, and a restarted one finds it again. */
function kafkaClusterId(config: StackConfig): string {
  const bytes = crypto.createHash('sha256').update(config.runDir).digest().subarray(0, 16);
  const id = bytes.toString('base64url');
  return id.startsWith('-') ? `A${id.slice(1)}` : id;
}

export const clusterCassandraNodes: readonly CassandraNode[] = CLUSTER_ADDRESSES.map((address, i) => ({
  name: `cassandra-${i + 1}`,
  clusterName: 'edgestream-cluster',
  address,
  seed: CLUSTER_ADDRESSES[0],
  initialToken: TOKENS[i] as string,
  // Three nodes share the machine: a quarter of the single node's memtable allowance each.
  memtableOffheapMiB: 256,
  // The fault tests SIGKILL them: what a node acknowledged must survive its restart.
  crashSafe: true,
}));

export const cassandraNodes: readonly LocalServer[] = clusterCassandraNodes.map(cassandraNodeServer);

export const kafkaNodes: readonly LocalServer[] = CLUSTER_ADDRESSES.map((address, i) =>
  kafkaNodeServer({
    name: `kafka-${i + 1}`,
    nodeId: i + 1,
    address,
    voterAddresses: CLUSTER_ADDRESSES,
    replicationFactor: CLUSTER_REPLICATION_FACTOR,
    minInsyncReplicas: CLUSTER_MIN_INSYNC_REPLICAS,
    clusterId: kafkaClusterId,
  }),
);

/** Every server of the cluster, in start order (the Cassandra seed first: it is the slowest). */
export const CLUSTER_SERVERS: readonly LocalServer[] = [cassandraNodes[0] as LocalServer, ...kafkaNodes, registryServer, ...cassandraNodes.slice(1)];

/** The first start wave: the other Cassandra nodes gossip with the seed when they start, so it must answer first. */
const FIRST_WAVE: readonly LocalServer[] = CLUSTER_SERVERS.filter((s) => !cassandraNodes.slice(1).includes(s));

export function clusterEndpoints(config: StackConfig): StackEndpoints {
  return {
    source: 'local',
    kafkaBrokers: CLUSTER_ADDRESSES.map((a) => `${a}:${config.ports.kafka}`),
    schemaRegistryUrl: registryUrl(config),
    cassandraContactPoints: CLUSTER_ADDRESSES.map((a) => `${a}:${config.ports.cassandraCql}`),
    cassandraLocalDc: 'datacenter1',
  };
}

/**
 * The project config that runs edgestream on the cluster (the input form of
 * `edgestream.config.json`): its `cluster` section, RF 3 per data centre, LOCAL_QUORUM
 * reads and writes, LOCAL_SERIAL for lightweight transactions, 3 replicas and
 * min.insync.replicas 2 for every topic.
 */
export function clusterProjectConfig(config: StackConfig) {
  const e = clusterEndpoints(config);
  return {
    cluster: {
      kafka: { brokers: [...e.kafkaBrokers] },
      schemaRegistry: { url: e.schemaRegistryUrl },
      cassandra: { contactPoints: [...e.cassandraContactPoints], localDataCenter: e.cassandraLocalDc },
    },
    cassandra: {
      replication: { class: 'NetworkTopologyStrategy' as const, dataCenters: { [e.cassandraLocalDc]: CLUSTER_REPLICATION_FACTOR } },
      consistency: { writes: 'LOCAL_QUORUM' as const, reads: 'LOCAL_QUORUM' as const, serial: 'LOCAL_SERIAL' as const },
    },
    topics: { replicationFactor: CLUSTER_REPLICATION_FACTOR, minInsyncReplicas: CLUSTER_MIN_INSYNC_REPLICAS },
  };
}

/** Where `up` writes `clusterProjectConfig` (a complete config file: `--config` takes it as is). */
export const clusterConfigPath = (config: StackConfig) => path.join(config.runDir, 'edgestream.config.json');

/** The Cassandra nodes see each other (every node UP in the seed's view) and every broker is in the Kafka cluster. */
async function clusterFormed(config: StackConfig): Promise<boolean> {
  const client = new cassandra.Client({
    contactPoints: [`${CLUSTER_ADDRESSES[0]}:${config.ports.cassandraCql}`],
    // The peers it discovers are reached on this port, not the default 9042.
    protocolOptions: { port: config.ports.cassandraCql },
    localDataCenter: 'datacenter1',
    socketOptions: { connectTimeout: 2_000 },
  });
  try {
    await client.connect();
    const up = client.hosts.values().filter((h) => h.isUp()).length;
    if (up < CLUSTER_ADDRESSES.length) return false;
  } finally {
    await client.shutdown().catch(() => {});
  }
  return kafkaAnswers(CLUSTER_ADDRESSES[0], config.ports.kafka, CLUSTER_ADDRESSES.length);
}

/**
 * Brings the cluster up in two waves (the seed, the brokers and the registry; then the
 * other Cassandra nodes), waits until every node sees the others, and writes the project
 * config. Idempotent like `stackUp`: running servers are left alone.
 */
export async function clusterUp(config: StackConfig, log: Log): Promise<UpResult> {
  const t0 = Date.now();
  const first = await stackUp(config, log, FIRST_WAVE);
  const second = await stackUp(config, log, CLUSTER_SERVERS);
  const formed = await waitUntil(() => clusterFormed(config), { timeoutMs: config.readyTimeoutMs, intervalMs: 1_000 });
  if (formed !== 'ready') {
    if (first.started.length + second.started.length > 0) await clusterDown(config, log);
    throw new StackError('NOT_READY', `the cluster did not form within ${config.readyTimeoutMs} ms (a Cassandra node not UP in the seed's view, or fewer than ${CLUSTER_ADDRESSES.length} brokers); see the logs under ${config.runDir}`);
  }
  fs.writeFileSync(clusterConfigPath(config), `${JSON.stringify(clusterProjectConfig(config), null, 2)}\n`);
  const started = [...first.started, ...second.started];
  return { started, alreadyRunning: CLUSTER_SERVERS.map((s) => s.name).filter((n) => !started.includes(n)), elapsedMs: Date.now() - t0 };
}

export const clusterDown = (config: StackConfig, log: Log): Promise<void> => stackDown(config, log, CLUSTER_SERVERS);

export const clusterStatus = (config: StackConfig): Promise<ServerStatus[]> => stackStatus(config, CLUSTER_SERVERS);

function clusterServer(name: string): LocalServer {
  const server = CLUSTER_SERVERS.find((s) => s.name === name);
  if (!server) throw new StackError('START_FAILED', `no cluster server named ${name} (one of ${CLUSTER_SERVERS.map((s) => s.name).join(', ')})`);
  return server;
}

/** SIGKILLs one node (a crash: no drain, no flush) and returns its pid once it is gone. */
export async function killNode(config: StackConfig, name: string): Promise<number> {
  clusterServer(name);
  const record = readRecord(config, name);
  if (!record || !isOurProcess(record)) throw new StackError('START_FAILED', `${name} is not running in ${config.runDir}, so it cannot be killed`);
  process.kill(record.pid, 'SIGKILL');
  const gone = await waitUntil(async () => !isOurProcess(record), { timeoutMs: 10_000, intervalMs: 50 });
  if (gone !== 'ready') throw new StackError('START_FAILED', `${name} (pid ${record.pid}) survived SIGKILL for 10 s`);
  return record.pid;
}

/** Starts a killed node again on its data; resolves once it answers. */
export async function restartNode(config: StackConfig, name: string, log: Log): Promise<void> {
  const server = clusterServer(name);
  const record = await startServer(config, server, log, true);
  await awaitReady(config, server, record);
}
