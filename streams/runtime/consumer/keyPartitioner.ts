import type { KafkaPort } from '../../kafka/index.ts';

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
export function createKeyPartitioner(kafka: KafkaPort, topic: string, nowMs: () => number = Date.now): KeyPartitioner {
  let known: { readonly count: number; readonly fetchedAt: number } | undefined;
  let fetching: Promise<void> | undefined;

  async function fetchCount(): Promise<void> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      const count = topics[0]?.partitions.length ?? 0;
      if (count === 0) throw new Error(`topic ${topic} has no partitions in its metadata`);
      known = { count, fetchedAt: nowMs() };
    } finally {
      await admin.disconnect();
    }
  }

  return async (key) => {
    if (known === undefined || nowMs() - known.fetchedAt > PARTITION_COUNT_TTL_MS) {
      fetching ??= fetchCount().finally(() => (fetching = undefined));
      await fetching;
    }
    return kafka.partitionForKey(key, (known as NonNullable<typeof known>).count);
  };
}
