import type { ConsumedBatch, ConsumedRecord, KafkaAdmin, KafkaConsumer, KafkaPort, KafkaProducer, RecordHeaders } from '../../kafka/index.ts';
import type { BatchPayload } from '../stages/createBatchHandler.ts';
import type { OutRecord, Publisher } from '../stages/pipelineTypes.ts';

/** A consumed record as the Kafka port hands it over (record-batch format: headers always present). */
export function message(offset: number, value: Buffer | null, opts: { key?: string; headers?: RecordHeaders; timestamp?: number } = {}): ConsumedRecord {
  return {
    key: opts.key === undefined ? null : Buffer.from(opts.key),
    value,
    timestamp: String(opts.timestamp ?? 1_700_000_000_000),
    offset: String(offset),
    headers: opts.headers ?? {},
  };
}

/** An eachBatch payload that records what the handler did with offsets, heartbeats and pauses. */
export function fakePayload(topic: string, partition: number, messages: ConsumedRecord[], { running = (): boolean => true }: { running?: () => boolean } = {}) {
  const log = { resolved: [] as string[], committed: [] as string[], heartbeats: 0, paused: 0, resumed: 0 };
  const batch = {
    topic,
    partition,
    messages,
  } satisfies ConsumedBatch;
  const payload: BatchPayload = {
    batch,
    resolveOffset: (offset) => void log.resolved.push(offset),
    heartbeat: async () => void log.heartbeats++,
    pause: () => {
      log.paused++;
      return () => void log.resumed++;
    },
    commitOffsetsIfNecessary: async (offsets) => {
      for (const t of offsets?.topics ?? []) for (const p of t.partitions) log.committed.push(`${t.topic}:${p.partition}@${p.offset}`);
    },
    isRunning: running,
    isStale: () => false,
  };
  return { payload, log };
}

/** A Publisher that keeps what it was given, and can be told to fail. */
export function fakePublisher() {
  const published: OutRecord[] = [];
  let failures: unknown[] = [];
  const publisher: Publisher = {
    async publish(records) {
      const failure = failures.shift();
      if (failure !== undefined) throw failure;
      published.push(...records);
    },
  };
  return { publisher, published, failNext: (...errors: unknown[]) => void (failures = errors) };
}

const unused = (what: string) => (): never => {
  throw new Error(`fakeKafkaPort: ${what} is not faked in this test`);
};

/**
 * A Kafka port made of the parts a unit test fakes: each of `parts` stands in for the client the
 * port hands out; a method a fake leaves out throws when called.
 */
export function fakeKafkaPort(parts: { admin?: Partial<KafkaAdmin>; consumer?: () => Partial<KafkaConsumer>; producer?: () => Partial<KafkaProducer> }): KafkaPort {
  const admin = (): KafkaAdmin => ({
    connect: async () => {},
    disconnect: async () => {},
    describeCluster: unused('admin.describeCluster'),
    listTopics: unused('admin.listTopics'),
    createTopics: unused('admin.createTopics'),
    deleteTopics: unused('admin.deleteTopics'),
    fetchTopicMetadata: unused('admin.fetchTopicMetadata'),
    describeTopicConfigs: unused('admin.describeTopicConfigs'),
    alterTopicConfigs: unused('admin.alterTopicConfigs'),
    fetchTopicOffsets: unused('admin.fetchTopicOffsets'),
    fetchTopicOffsetsByTimestamp: unused('admin.fetchTopicOffsetsByTimestamp'),
    fetchOffsets: unused('admin.fetchOffsets'),
    describeGroup: unused('admin.describeGroup'),
    deleteGroups: unused('admin.deleteGroups'),
    setGroupOffsets: unused('admin.setGroupOffsets'),
    ...parts.admin,
  });
  const consumer = (): KafkaConsumer => ({
    connect: async () => {},
    disconnect: async () => {},
    subscribe: async () => {},
    run: unused('consumer.run'),
    pause: unused('consumer.pause'),
    seek: unused('consumer.seek'),
    onGroupJoin: () => {},
    onRebalancing: () => {},
    onCrash: () => {},
    ...parts.consumer?.(),
  });
  const producer = (): KafkaProducer => ({
    connect: async () => {},
    disconnect: async () => {},
    send: unused('producer.send'),
    sendBatch: unused('producer.sendBatch'),
    ...parts.producer?.(),
  });
  return { admin, consumer, producer, partitionForKey: unused('partitionForKey') };
}
