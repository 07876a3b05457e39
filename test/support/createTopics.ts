import type { KafkaPort } from '../../streams/kafka/index.ts';
import { waitForLeaders } from '../../streams/topics/ensureTopics.ts';

/**
 * Creates topics explicitly (never rely on broker auto-create) and waits for
 * their partition leaders (ensureTopics' wait: kafkajs's own throws when a
 * broker has not yet seen the topic), so the first produce does not race the
 * election. Throws if a topic already exists: tests use unique names.
 */
export async function createTopics(
  kafka: KafkaPort,
  topics: readonly string[],
  { numPartitions = 1 }: { numPartitions?: number } = {},
): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const created = await admin.createTopics({ topics: topics.map((topic) => ({ topic, numPartitions, replicationFactor: 1 })) });
    if (!created) throw new Error(`topics already exist: ${topics.join(', ')}`);
    await waitForLeaders(admin, topics.map((topic) => ({ topic, numPartitions })), 30_000);
  } finally {
    await admin.disconnect();
  }
}
