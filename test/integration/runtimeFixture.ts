import type { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import cassandra from 'cassandra-driver';
import type { KafkaAdmin, KafkaPort } from '../../streams/kafka/index.ts';
import { connectClients } from '../../cli/connectClients.ts';
import { pino, type Logger } from 'pino';
import type { EventProcessor } from '../../processors/index.ts';
import { defaultEdgestreamConfig, type EdgestreamConfig, type EdgestreamConfigInput } from '../../schemas/config/edgestreamConfig.ts';
import { knownSchemas, type EdgeMutation } from '../../schemas/index.ts';
import { validateEdgeMutation } from '../../schemas/validation/index.ts';
import { createCassandraStore } from '../../sinks/cassandra/index.ts';
import type { CassandraStoreConfig } from '../../sinks/cassandra/index.ts';
import type { TwoLevelMapStore } from '../../sinks/store/index.ts';
import { createAvroSerde, registerSchemas, type AvroSerde } from '../../streams/serde/index.ts';
import { ensureTopics, topicName } from '../../streams/topics/index.ts';
import type { ValidateEvent } from '../../streams/runtime/index.ts';
import { stackEndpoints } from '../support/stack.ts';
import { uniqueName } from '../support/uniqueName.ts';

/**
 * Real Kafka, registry and Cassandra for runtime tests: a unique topic prefix
 * (topics created with ensureTopics, EdgeMutation registered), a unique
 * keyspace with the `it_*` namespaces of `linkProcessor`, and helpers to watch
 * consumer-group offsets. Nothing is faked.
 */
export interface RuntimeFixture {
  /** The Kafka port (the adapter EDGESTREAM_KAFKA_CLIENT names) and an admin client of it. */
  readonly kafka: KafkaPort;
  readonly admin: KafkaAdmin;
  readonly serde: AvroSerde;
  readonly registry: SchemaRegistry;
  readonly config: EdgestreamConfig;
  readonly logger: Logger;
  readonly keyspace: string;
  readonly cql: cassandra.Client;
  readonly topics: { readonly input: string; readonly repair: string; readonly dlq: string };
  readonly validate: ValidateEvent<EdgeMutation>;
  /** A Cassandra store on the fixture's keyspace (closed by `teardown`). */
  openStore(overrides?: Partial<CassandraStoreConfig>): Promise<TwoLevelMapStore>;
  teardown(): Promise<void>;
}

export const IT_NAMESPACES = [
  { name: 'it_out', chunking: false },
  { name: 'it_in', chunking: false },
  { name: 'it_dirty', chunking: false },
];

export async function createRuntimeFixture(name: string, runtime: EdgestreamConfigInput['runtime'] = {}): Promise<RuntimeFixture> {
  const stack = stackEndpoints();
  const logger = pino({ level: process.env['IT_LOG_LEVEL'] ?? 'silent' });
  const { kafka, registry } = await connectClients(stack, `it-${name}`, logger);
  const serde = createAvroSerde({ registry });
  const prefix = `${uniqueName(`it-${name}`)}.`;
  const config = defaultEdgestreamConfig({
    topics: { prefix, partitions: 3, replicationFactor: 1 },
    runtime: { writeRetryBudgetMs: 1_000, partitionsConsumedConcurrently: 3, tombstoneCacheTtlMs: 0, ...runtime },
  });
  const admin = kafka.admin();
  await admin.connect();
  await ensureTopics(admin, config);
  const topics = {
    input: topicName(prefix, 'edge-mutations'),
    repair: topicName(prefix, 'edge-mutations.repair'),
    dlq: topicName(prefix, 'edge-mutations.dlq'),
  };
  await registerSchemas(registry, { [topics.input]: knownSchemas.EdgeMutation });

  const keyspace = `it_${name.replace(/[^a-z0-9]/g, '_')}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const connection = { contactPoints: [...stack.cassandraContactPoints], localDataCenter: stack.cassandraLocalDc };
  const cql = new cassandra.Client({ ...connection, encoding: { useBigIntAsLong: true } });
  await cql.connect();
  const stores: TwoLevelMapStore[] = [];

  return {
    kafka,
    admin,
    serde,
    registry,
    config,
    logger,
    keyspace,
    cql,
    topics,
    validate: (event, at) => validateEdgeMutation(event, config, at),
    async openStore(overrides = {}) {
      const store = await createCassandraStore({ ...connection, keyspace, namespaces: IT_NAMESPACES, requestTimeoutMs: 5_000, ...overrides });
      await store.init();
      stores.push(store);
      return store;
    },
    async teardown() {
      for (const s of stores) await s.close().catch(() => {});
      await cql.execute(`DROP KEYSPACE IF EXISTS ${keyspace}`).catch(() => {});
      await cql.shutdown();
      await admin.disconnect();
    },
  };
}

const utf8 = (s: string) => new TextEncoder().encode(s);

/**
 * The runtime tests' processor (the real fan-out is processors/fanout): an
 * ADD_EDGE src→dst writes `it_out[src][dst]` and `it_in[dst][src]` (value: the
 * mutation id) at event_time after reading `it_out[src][dst]`, and marks
 * `it_dirty[shard-0][src]` as a follow-up. Other ops write nothing. It
 * records the mutation ids it processed. With `reads: false` it skips the
 * point read, so a store outage shows up on its writes.
 */
export function linkProcessor({ reads = true }: { reads?: boolean } = {}): EventProcessor<EdgeMutation> & { readonly processed: string[] } {
  const processed: string[] = [];
  return {
    name: 'it-links',
    processed,
    reads: (e) => (reads && e.op === 'ADD_EDGE' ? [{ namespace: 'it_out', id: e.src, key: utf8(e.dst) }] : []),
    process(e) {
      processed.push(e.mutation_id);
      if (e.op !== 'ADD_EDGE') return { writes: [], followUps: [], emits: [] };
      const value = utf8(e.mutation_id);
      return {
        writes: [
          { namespace: 'it_out', id: e.src, writeTime: e.event_time, deletions: [], additions: [{ key: utf8(e.dst), value }] },
          { namespace: 'it_in', id: e.dst, writeTime: e.event_time, deletions: [], additions: [{ key: utf8(e.src), value }] },
        ],
        followUps: [{ namespace: 'it_dirty', id: 'shard-0', deletions: [], additions: [{ key: utf8(e.src), value: new Uint8Array(0) }] }],
        emits: [],
      };
    },
  };
}

/** Committed offset per partition of `topic` for `groupId` (-1 when none). */
export async function committedOffsets(admin: KafkaAdmin, groupId: string, topic: string): Promise<Map<number, bigint>> {
  const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
  return new Map((entry?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]));
}

/** Log-end offset per partition. */
export async function endOffsets(admin: KafkaAdmin, topic: string): Promise<Map<number, bigint>> {
  return new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, BigInt(p.high)]));
}

/** True once the group has committed the log end of every partition of `topic`. */
export async function caughtUp(admin: KafkaAdmin, groupId: string, topic: string): Promise<boolean> {
  const [committed, end] = await Promise.all([committedOffsets(admin, groupId, topic), endOffsets(admin, topic)]);
  return [...end].every(([p, high]) => high === 0n || committed.get(p) === high);
}

export async function waitFor(what: string, condition: () => Promise<boolean> | boolean, { timeoutMs = 60_000, everyMs = 100 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export interface ConsumedRecord {
  readonly partition: number;
  readonly offset: bigint;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: Record<string, string>;
  readonly timestamp: number;
}

/** Reads `count` records of `topic` from the beginning with a throwaway group, keeping partition and offset. */
export async function readTopic(kafka: KafkaPort, topic: string, count: number, { timeoutMs = 60_000 } = {}): Promise<ConsumedRecord[]> {
  const consumer = kafka.consumer({ groupId: `it-read-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}` });
  const records: ConsumedRecord[] = [];
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`read ${records.length} of ${count} records from ${topic} in ${timeoutMs} ms`)), timeoutMs);
      consumer
        .run({
          eachBatch: async ({ batch, resolveOffset }) => {
            for (const m of batch.messages) {
              resolveOffset(m.offset);
              records.push({
                partition: batch.partition,
                offset: BigInt(m.offset),
                key: m.key,
                value: m.value,
                timestamp: Number(m.timestamp),
                headers: Object.fromEntries(Object.entries(m.headers ?? {}).map(([k, v]) => [k, String(v)])),
              });
            }
            if (records.length >= count) {
              clearTimeout(timer);
              resolve();
            }
          },
        })
        .catch((e: unknown) => {
          clearTimeout(timer);
          reject(e instanceof Error ? e : new Error(String(e)));
        });
    });
    return records;
  } finally {
    await consumer.disconnect();
  }
}

/** Total records of `topic` (sum of log-end offsets; the topics here are never compacted or truncated). */
export async function recordCount(admin: KafkaAdmin, topic: string): Promise<number> {
  return Number([...(await endOffsets(admin, topic)).values()].reduce((a, b) => a + b, 0n));
}
