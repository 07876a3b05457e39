import fs from 'node:fs';
import path from 'node:path';
import cassandra from 'cassandra-driver';
import { findJava } from '../javaRuntime.ts';
import { ensureClasspath } from '../mavenArtifacts.ts';
import { STACK_VERSIONS, type StackConfig } from '../stackConfig.ts';
import type { LaunchPlan, LocalServer, ServerContext } from './localServer.ts';

/** One Cassandra node: the single-node stack's, or one of the local cluster's (stack/clusterServers.ts). */
export interface CassandraNode {
  readonly name: string;
  readonly clusterName: string;
  /** listen and rpc address; every node uses the same ports on its own loopback address. */
  readonly address: string;
  readonly seed: string;
  /** One token per node (num_tokens 1), so ownership is even and predictable. */
  readonly initialToken: string;
  readonly memtableOffheapMiB: number;
  /**
   * Keeps system-table writes durable. Without it (`cassandra.unsafesystem`) schema changes live
   * in memtables only, so a SIGKILLed node forgets tables created since its last schema flush and
   * its commit-log replay skips every write to them ("Skipped N mutations from unknown CF"):
   * acknowledged writes lost. The cluster's nodes are killed on purpose by its fault tests.
   */
  readonly crashSafe: boolean;
}

export const SINGLE_NODE: CassandraNode = {
  name: 'cassandra', clusterName: 'edgestream-local', address: '127.0.0.1', seed: '127.0.0.1', initialToken: '0', memtableOffheapMiB: 1024, crashSafe: false,
};

/**
 * cassandra.yaml for a throwaway node (5.0 option names). Memtables live off-heap
 * and may grow to 1 GiB: with 128 MiB on-heap, bench:mixed's bulk load flushed 268 times
 * and compacted 816 times in 7.5 minutes, CPU the foreground paid for on 2 cores.
 * Compaction is capped at 16 MiB/s so that it trails the load instead of bursting.
 * SSTables are written in 5.0's trie-indexed format (`bti`, which needs
 * `storage_compatibility_mode: NONE`): a partition lookup walks a trie instead of the
 * key cache and the sampled index of the `big` format (12.5 % of the request threads'
 * samples in a count settle's Flight Recording).
 * A cluster node does not bootstrap: the cluster is new and empty, so it joins at once.
 */
export function cassandraYaml(config: StackConfig, dataDir: string, node: CassandraNode = SINGLE_NODE): string {
  const p = config.ports;
  return `cluster_name: '${node.clusterName}'
num_tokens: 1
initial_token: "${node.initialToken}"
auto_bootstrap: false
partitioner: org.apache.cassandra.dht.Murmur3Partitioner
endpoint_snitch: SimpleSnitch
seed_provider:
  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
    parameters:
      - seeds: "${node.seed}:${p.cassandraStorage}"
listen_address: ${node.address}
rpc_address: ${node.address}
storage_port: ${p.cassandraStorage}
native_transport_port: ${p.cassandraCql}
start_native_transport: true
data_file_directories:
  - ${dataDir}/data
commitlog_directory: ${dataDir}/commitlog
saved_caches_directory: ${dataDir}/saved_caches
hints_directory: ${dataDir}/hints
cdc_raw_directory: ${dataDir}/cdc_raw
commitlog_sync: periodic
commitlog_sync_period: 10000ms
authenticator: AllowAllAuthenticator
authorizer: AllowAllAuthorizer
role_manager: CassandraRoleManager
disk_failure_policy: stop
commit_failure_policy: stop
auto_snapshot: false
concurrent_compactors: 1
compaction_throughput: 16MiB/s
memtable_allocation_type: offheap_objects
memtable_heap_space: 128MiB
memtable_offheap_space: ${node.memtableOffheapMiB}MiB
memtable_flush_writers: 1
key_cache_size: 16MiB
file_cache_size: 32MiB
storage_compatibility_mode: NONE
sstable:
  selected_format: bti
`;
}

const LOGBACK = `<configuration>
  <appender name="STDOUT" class="ch.qos.logback.core.ConsoleAppender">
    <encoder><pattern>%-5level [%thread] %date{ISO8601} %F:%L - %msg%n</pattern></encoder>
  </appender>
  <root level="INFO"><appender-ref ref="STDOUT"/></root>
</configuration>
`;

/** JPMS flags from Cassandra 5.0's conf/jvm17-server.options: reflective access fails without them. */
const JDK17_MODULE_FLAGS = [
  ...['java.base/jdk.internal.misc', 'java.management.rmi/com.sun.jmx.remote.internal.rmi', 'java.management/com.sun.jmx.remote.security',
    'java.rmi/sun.rmi.registry', 'java.rmi/sun.rmi.server', 'java.sql/java.sql', 'java.base/java.lang.ref', 'jdk.unsupported/sun.misc',
    'jdk.attach/sun.tools.attach', 'jdk.compiler/com.sun.tools.javac.file'].flatMap((m) => ['--add-exports', `${m}=ALL-UNNAMED`]),
  ...['java.base/java.lang.module', 'java.base/jdk.internal.loader', 'java.base/jdk.internal.ref', 'java.base/jdk.internal.reflect',
    'java.base/jdk.internal.math', 'java.base/jdk.internal.module', 'java.base/jdk.internal.util.jar', 'jdk.management/com.sun.management.internal',
    'java.base/sun.nio.ch', 'java.base/java.io', 'java.base/java.lang.reflect', 'java.base/java.lang', 'java.base/java.util', 'java.base/java.nio',
    'jdk.compiler/com.sun.tools.javac'].flatMap((m) => ['--add-opens', `${m}=ALL-UNNAMED`]),
];

/** True once the node at host:port answers a CQL query. */
export async function cassandraAnswers(host: string, port: number): Promise<boolean> {
  const client = new cassandra.Client({
    contactPoints: [`${host}:${port}`],
    localDataCenter: 'datacenter1',
    socketOptions: { connectTimeout: 2_000 },
  });
  try {
    const rs = await client.execute('SELECT release_version FROM system.local');
    return rs.rowLength === 1;
  } finally {
    await client.shutdown().catch(() => {});
  }
}

/** The JVM flags that trade the system tables' durability for speed, on a node that is not crashSafe. */
export function systemDurabilityFlags(node: CassandraNode): string[] {
  return node.crashSafe ? [] : ['-Dcassandra.unsafesystem=true'];
}

/** A launcher for one Cassandra node (the single-node stack's by default). */
export function cassandraNodeServer(node: CassandraNode): LocalServer {
  return {
    name: node.name,
    host: node.address,
    ports: (c) => [c.ports.cassandraCql, c.ports.cassandraStorage],

    async prepare(ctx: ServerContext): Promise<LaunchPlan> {
      const java = await findJava('Cassandra 5.0', (m) => m === 11 || m === 17, 'a JDK 11 or 17');
      const lib = await ensureClasspath(ctx.config.cacheDir, `cassandra-${STACK_VERSIONS.cassandra}`, [
        { groupId: 'org.apache.cassandra', artifactId: 'cassandra-all', version: STACK_VERSIONS.cassandra },
      ]);
      const jamm = fs.readdirSync(lib).find((f) => /^jamm-[\d.]+\.jar$/.test(f));
      const dataDir = path.join(ctx.dir, 'data');
      fs.mkdirSync(dataDir, { recursive: true });
      fs.mkdirSync(path.join(ctx.dir, 'tmp'), { recursive: true });
      fs.writeFileSync(path.join(ctx.dir, 'cassandra.yaml'), cassandraYaml(ctx.config, dataDir, node));
      fs.writeFileSync(path.join(ctx.dir, 'logback.xml'), LOGBACK);
      const heap = ctx.config.heapMiB.cassandra;
      return {
        bin: java.bin,
        args: [
          ctx.marker,
          '-ea', '-da:net.openhft...', '-XX:+UseThreadPriorities', '-Xss256k', '-XX:+UseTLAB', '-XX:+ResizeTLAB', '-XX:+PerfDisableSharedMem',
          '-Djava.net.preferIPv4Stack=true', '-Dchronicle.analytics.disable=true',
          `-Xms${Math.min(512, heap)}m`, `-Xmx${heap}m`, '-XX:+UseG1GC', '-XX:+ParallelRefProcEnabled', '-XX:MaxTenuringThreshold=1',
          '-Djdk.attach.allowAttachSelf=true',
          ...JDK17_MODULE_FLAGS,
          '-Dio.netty.tryReflectionSetAccessible=true', '-Dio.netty.allocator.useCacheForAllThreads=true', '-Dio.netty.allocator.maxOrder=11',
          ...(jamm ? [`-javaagent:${path.join(lib, jamm)}`] : []),
          `-Dcassandra.config=file://${path.join(ctx.dir, 'cassandra.yaml')}`,
          `-Dlogback.configurationFile=${path.join(ctx.dir, 'logback.xml')}`,
          `-Dcassandra.storagedir=${dataDir}`, `-Dcassandra.logdir=${ctx.dir}`,
          // Without this Cassandra closes stdout/stderr after setup and the log goes dark.
          '-Dcassandra-foreground=yes',
          // Skip the gossip settle wait; a throwaway single node also skips the system-table writes' durability (see crashSafe).
          '-Dcassandra.skip_wait_for_gossip_to_settle=0',
          ...systemDurabilityFlags(node),
          `-Djna.tmpdir=${path.join(ctx.dir, 'tmp')}`,
          '-cp', `${lib}/*`, 'org.apache.cassandra.service.CassandraDaemon',
        ],
      };
    },

    ready: (config: StackConfig) => cassandraAnswers(node.address, config.ports.cassandraCql),
  };
}

export const cassandraServer: LocalServer = cassandraNodeServer(SINGLE_NODE);
