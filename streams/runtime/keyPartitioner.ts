import { Partitioners, type Kafka } from 'kafkajs';

/** The input partition a record keyed by `key` goes to, as every producer using Kafka's default partitioner picks it. */
export type KeyPartitioner = (key: string) => Promise<number>;

/** How long a topic's partition count is trusted before it is fetched again. */
const PARTITION_COUNT_TTL_MS = 60_000;

/**
 * Kafka's default partitioner for keyed records (murmur2 of the key, modulo
 * the partition count: the Java client's, kafkajs' DefaultPartitioner,
 * librdkafka's `murmur2_random`) over `topic`'s partition count, fetched with
 * an admin client and kept for a minute.
 */
export function createKeyPartitioner(kafka: Kafka, topic: string, nowMs: () => number = Date.now): KeyPartitioner {
  const choose = Partitioners.DefaultPartitioner();
  let metadata: { readonly partitionMetadata: { partitionId: number; leader: number }[]; readonly fetchedAt: number } | undefined;
  let fetching: Promise<void> | undefined;

  async function fetchCount(): Promise<void> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      const count = topics[0]?.partitions.length ?? 0;
      if (count === 0) throw new Error(`topic ${topic} has no partitions in its metadata`);
      metadata = { partitionMetadata: Array.from({ length: count }, (_, i) => ({ partitionId: i, leader: 0 })), fetchedAt: nowMs() };
    } finally {
      await admin.disconnect();
    }
  }

  return async (key) => {
    if (metadata === undefined || nowMs() - metadata.fetchedAt > PARTITION_COUNT_TTL_MS) {
      fetching ??= fetchCount().finally(() => (fetching = undefined));
      await fetching;
    }
    const { partitionMetadata } = metadata as NonNullable<typeof metadata>;
    return choose({ topic, partitionMetadata: partitionMetadata as never, message: { key, value: null } });
  };
}
