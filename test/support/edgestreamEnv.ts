import { randomBytes } from 'node:crypto';
import type { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import cassandra from 'cassandra-driver';
import { pino, type Logger } from 'pino';
import { connectClients } from '../../cli/connectClients.ts';
import { cassandraConnection, openStore } from '../../cli/openStore.ts';
import { parseEdgestreamConfig, type EdgestreamConfig, type EdgestreamConfigInput } from '../../schemas/config/edgestreamConfig.ts';
import { knownSchemas } from '../../schemas/index.ts';
import type { TwoLevelMapStore } from '../../sinks/store/TwoLevelMapStore.ts';
import type { StackEndpoints } from '../../stack/endpoints.ts';
import { createAvroSerde, registerSchemas, subjectFor, type AvroSerde } from '../../streams/serde/index.ts';
import { edgePipelineGroups } from '../../streams/topology/createEdgePipeline.ts';
import { dlqTopicOf, ensureTopics, repairTopicOf, topicName, topicSchemas, topicSpecs } from '../../streams/topics/index.ts';
import type { StackDurability } from './clusterFixture.ts';
import { stackDurability, stackEndpoints } from './stack.ts';
import type { KafkaAdmin, KafkaPort } from '../../streams/kafka/index.ts';

/**
 * Everything `edgestream init` sets up, for one test file, on the real stack:
 * a config with a unique topic prefix (`t<random>.`) and keyspace, its
 * topics (ensureTopics: input, repair, DLQ and any other the config declares), the EdgeMutation schema registered under the input
 * topic's subject, and the keyspace with every namespace of the config
 * (cli/openStore: the Cassandra store the CLI uses). `teardown` deletes the
 * topics, the consumer groups of the pipeline and the subject, and drops the
 * keyspace. Nothing is faked.
 */
export interface EdgestreamEnv {
  readonly endpoints: StackEndpoints;
  /** The config as written to a config file (JSON-safe input form). */
  readonly configInput: EdgestreamConfigInput;
  readonly config: EdgestreamConfig;
  /** The Kafka port (the adapter EDGESTREAM_KAFKA_CLIENT names, as the CLI's) and an admin client of it. */
  readonly kafka: KafkaPort;
  readonly admin: KafkaAdmin;
  readonly registry: SchemaRegistry;
  readonly serde: AvroSerde;
  /** The Cassandra store on the env's keyspace, every namespace created. */
  readonly store: TwoLevelMapStore;
  /** A raw CQL session (for scans the store port does not offer). */
  readonly cql: cassandra.Client;
  readonly logger: Logger;
  readonly topics: { readonly input: string; readonly repair: string; readonly dlq: string };
  /** Records in the DLQ topic. */
  dlqCount(): Promise<number>;
  teardown(): Promise<void>;
}

export interface EdgestreamEnvOptions {
  /** A short lowercase tag for names (keyspace `<name>_<random>`). */
  readonly name: string;
  /** Edge type names, or entries with `symmetric` (default: follows and likes, directed). */
  readonly edgeTypes?: readonly (string | { readonly name: string; readonly symmetric?: boolean })[];
  readonly partitions?: number;
  /** Overrides of the runtime section; the defaults keep cascades and recounts fast. */
  readonly runtime?: NonNullable<EdgestreamConfigInput['runtime']>;
  /** Overrides of the wide-partition section. */
  readonly wide?: NonNullable<EdgestreamConfigInput['wide']>;
  /** Overrides of the limits section. */
  readonly limits?: NonNullable<EdgestreamConfigInput['limits']>;
  /** Another stack than globalSetup's. */
  readonly endpoints?: StackEndpoints;
  /** Replication and consistency in place of RF 1; default: what globalSetup provides (the `cluster` project: RF 3, LOCAL_QUORUM, min.insync.replicas 2). */
  readonly durability?: StackDurability;
}

export async function createEdgestreamEnv(opts: EdgestreamEnvOptions): Promise<EdgestreamEnv> {
  const endpoints = opts.endpoints ?? stackEndpoints();
  const durability = opts.durability ?? stackDurability();
  const rand = randomBytes(4).toString('hex');
  const configInput: EdgestreamConfigInput = {
    edgeTypes: (opts.edgeTypes ?? ['follows', 'likes']).map((t) => (typeof t === 'string' ? { name: t } : t)),
    topics: { prefix: `t${rand}.`, partitions: opts.partitions ?? 3, ...(durability?.topics ?? { replicationFactor: 1 }) },
    cassandra: { keyspace: `${opts.name}_${rand}`, ...(durability?.cassandra ?? { replicationFactor: 1 }) },
    runtime: {
      sessionTimeoutMs: 8_000, // a SIGKILLed processor's partitions move on quickly
      writeRetryBudgetMs: 1_000,
      // writeLandingMarginMs stays at its 2 s default: the local stack's write_request_timeout.
      cascadeSettleMs: 6_500,
      tombstoneCacheTtlMs: 300, // exercises the cache within its safety rule (2 × (1000 + 2000) + 300 < 6500)
      recountIntervalMs: 250,
      repairInitialBackoffMs: 200,
      repairMaxBackoffMs: 2_000,
      ...durability?.runtime,
      ...opts.runtime,
    },
    ...(opts.wide ? { wide: opts.wide } : {}),
    ...(opts.limits ? { limits: opts.limits } : {}),
  };
  const config = parseEdgestreamConfig(configInput, `test config ${opts.name}`);
  const logger = pino({ level: process.env['IT_LOG_LEVEL'] ?? 'silent' });
  const { kafka, registry } = await connectClients(endpoints, `it-${opts.name}`, logger);
  const serde = createAvroSerde({ registry, maxRecordBytes: config.limits.maxRecordBytes });
  const prefix = config.topics.prefix;
  const topics = {
    input: topicName(prefix, 'edge-mutations'),
    repair: topicName(prefix, repairTopicOf('edge-mutations')),
    dlq: topicName(prefix, dlqTopicOf('edge-mutations')),
  };
  const admin = kafka.admin();
  await admin.connect();
  // What cli/commands/init.ts does: topics, schemas, keyspace and namespaces.
  await ensureTopics(admin, config);
  await registerSchemas(registry, topicSchemas(config));
  const store = await openStore(endpoints, config);
  await store.init();
  const cql = new cassandra.Client({ ...cassandraConnection(endpoints), encoding: { useBigIntAsLong: true } });
  await cql.connect();

  return {
    endpoints,
    configInput,
    config,
    kafka,
    admin,
    registry,
    serde,
    store,
    cql,
    logger,
    topics,
    async dlqCount() {
      const offsets = await admin.fetchTopicOffsets(topics.dlq);
      return offsets.reduce((n, p) => n + Number(BigInt(p.high) - BigInt(p.low)), 0);
    },
    async teardown() {
      const quietly = (p: Promise<unknown>) => p.catch(() => undefined);
      await quietly(store.close());
      await quietly(cql.execute(`DROP KEYSPACE IF EXISTS ${config.cassandra.keyspace}`));
      await quietly(cql.shutdown());
      await quietly(admin.deleteGroups(edgePipelineGroups(config).map((g) => g.group)));
      await quietly(admin.deleteTopics({ topics: topicSpecs(config).map((s) => s.topic) }));
      await quietly(fetch(`${endpoints.schemaRegistryUrl}/subjects/${encodeURIComponent(subjectFor(topics.input, knownSchemas.EdgeMutation))}`, { method: 'DELETE' }));
      await quietly(admin.disconnect());
    },
  };
}
