import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Kafka, logLevel, type SASLOptions } from 'kafkajs';
import type { KafkaSecurity } from '../clientSecurity.ts';
import { findJava } from '../javaRuntime.ts';
import { ensureClasspath } from '../mavenArtifacts.ts';
import { StackError } from '../stackError.ts';
import { STACK_VERSIONS, type StackConfig } from '../stackConfig.ts';
import type { LaunchPlan, LocalServer, ServerContext } from './localServer.ts';

const execFileAsync = promisify(execFile);

/** One combined broker+controller (KRaft): the single-node stack's, or one of the local cluster's (stack/clusterServers.ts). */
export interface KafkaNode {
  readonly name: string;
  readonly nodeId: number;
  /** Listener address; every node uses the same ports on its own loopback address. */
  readonly address: string;
  /** Every voter's address, in node-id order (1-based). */
  readonly voterAddresses: readonly string[];
  /** Replicas of the internal topics and `min.insync.replicas` for them. */
  readonly replicationFactor: number;
  readonly minInsyncReplicas: number;
  /** All nodes of one cluster format their storage with the same id. */
  clusterId(config: StackConfig): string;
}

const SINGLE_NODE: KafkaNode = {
  name: 'kafka', nodeId: 1, address: '127.0.0.1', voterAddresses: ['127.0.0.1'], replicationFactor: 1, minInsyncReplicas: 1, clusterId: () => randomClusterId(),
};

/** server.properties for a combined broker+controller (KRaft). */
export function kafkaServerProperties(config: StackConfig, logDir: string, node: KafkaNode = SINGLE_NODE): string {
  const { kafka, kafkaController } = config.ports;
  const voters = node.voterAddresses.map((a, i) => `${i + 1}@${a}:${kafkaController}`).join(',');
  return `process.roles=broker,controller
node.id=${node.nodeId}
controller.quorum.voters=${voters}
listeners=PLAINTEXT://${node.address}:${kafka},CONTROLLER://${node.address}:${kafkaController}
advertised.listeners=PLAINTEXT://${node.address}:${kafka}
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=${logDir}
offsets.topic.replication.factor=${node.replicationFactor}
transaction.state.log.replication.factor=${node.replicationFactor}
transaction.state.log.min.isr=${node.minInsyncReplicas}
default.replication.factor=${node.replicationFactor}
min.insync.replicas=${node.minInsyncReplicas}
num.partitions=1
# 50 offsets partitions would be created on the first group join: slow on 2 cores.
offsets.topic.num.partitions=1
transaction.state.log.num.partitions=1
# the default adds 3 s to every first group join
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=2
background.threads=2
num.recovery.threads.per.data.dir=1
log.cleaner.threads=1
# the 128 MiB default dedupe buffer is allocated on heap at startup
log.cleaner.dedupe.buffer.size=8388608
auto.create.topics.enable=false
delete.topic.enable=true
`;
}

function log4j(level: 'INFO' | 'WARN'): string {
  return `log4j.rootLogger=${level}, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
`;
}

/** A KRaft cluster id: 16 random bytes, base64url; must not start with '-' (it would parse as a flag). */
function randomClusterId(): string {
  for (;;) {
    const id = crypto.randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

/** True once the broker at host:port answers (over `security`, if given) and its cluster has at least `brokers` brokers. */
export async function kafkaAnswers(host: string, port: number, brokers = 1, security: KafkaSecurity = {}): Promise<boolean> {
  const admin = new Kafka({
    clientId: 'edgestream-stack-probe',
    brokers: [`${host}:${port}`],
    ...(security.ssl === undefined ? {} : { ssl: security.ssl }),
    ...(security.sasl === undefined ? {} : { sasl: { ...security.sasl } as SASLOptions }),
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
    connectionTimeout: 2_000,
  }).admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    return cluster.brokers.length >= brokers;
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

/** A launcher for one Kafka node (the single-node stack's by default). */
export function kafkaNodeServer(node: KafkaNode): LocalServer {
  return {
    name: node.name,
    host: node.address,
    ports: (c) => [c.ports.kafka, c.ports.kafkaController],

    async prepare(ctx: ServerContext): Promise<LaunchPlan> {
      const java = await findJava('Kafka 3.9', (m) => m >= 17, 'Java 17 or newer');
      const lib = await ensureClasspath(ctx.config.cacheDir, `kafka-${STACK_VERSIONS.kafka}`, [
        { groupId: 'org.apache.kafka', artifactId: 'kafka_2.13', version: STACK_VERSIONS.kafka },
        // reload4j is compileOnly in Kafka's build: without these two the broker logs nothing.
        { groupId: 'org.slf4j', artifactId: 'slf4j-reload4j', version: '1.7.36' },
        { groupId: 'ch.qos.reload4j', artifactId: 'reload4j', version: '1.2.25' },
      ]);
      const logDir = path.join(ctx.dir, 'data');
      fs.mkdirSync(logDir, { recursive: true });
      const props = path.join(ctx.dir, 'server.properties');
      fs.writeFileSync(props, kafkaServerProperties(ctx.config, logDir, node));
      fs.writeFileSync(path.join(ctx.dir, 'log4j.properties'), log4j('INFO'));
      fs.writeFileSync(path.join(ctx.dir, 'tools-log4j.properties'), log4j('WARN'));
      // The broker refuses unformatted log dirs; StorageTool has no --override, it reads the file.
      try {
        await execFileAsync(java.bin, [
          '-Xmx256m', `-Dlog4j.configuration=file:${path.join(ctx.dir, 'tools-log4j.properties')}`,
          '-cp', `${lib}/*`, 'kafka.tools.StorageTool', 'format', '--ignore-formatted', '-t', node.clusterId(ctx.config), '-c', props,
        ], { timeout: 120_000 });
      } catch (e) {
        const err = e as { stderr?: string; stdout?: string };
        throw new StackError('START_FAILED', `kafka storage format failed: ${err.stderr ?? ''}${err.stdout ?? ''}`, { cause: e });
      }
      const heap = ctx.config.heapMiB.kafka;
      return {
        bin: java.bin,
        args: [
          ctx.marker,
          `-Xms${Math.min(256, heap)}m`, `-Xmx${heap}m`,
          '-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20', '-XX:InitiatingHeapOccupancyPercent=35', '-XX:+ExplicitGCInvokesConcurrent',
          '-Djava.awt.headless=true', `-Dlog4j.configuration=file:${path.join(ctx.dir, 'log4j.properties')}`,
          '-cp', `${lib}/*`, 'kafka.Kafka', props,
        ],
      };
    },

    ready: (config: StackConfig) => kafkaAnswers(node.address, config.ports.kafka),
  };
}

export const kafkaServer: LocalServer = kafkaNodeServer(SINGLE_NODE);
