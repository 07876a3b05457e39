import { Kafka, logLevel } from 'kafkajs';
import type { KafkaAdmin, KafkaPort } from '../../streams/kafka/index.ts';
import { kafkajsPort } from '../../streams/kafka/kafkajs/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultEdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { ensureTopics, topicSpecs, TopicError } from '../../streams/topics/index.ts';
import { createTopics } from '../support/createTopics.ts';
import { stackEndpoints } from '../support/stack.ts';
import { uniqueName } from '../support/uniqueName.ts';

// Real Kafka (auto-create is off on the stack): topics exist only if ensureTopics made them.

describe('ensureTopics on real Kafka', () => {
  let kafka: KafkaPort;
  let admin: KafkaAdmin;

  beforeAll(async () => {
    kafka = kafkajsPort(new Kafka({ clientId: 'it-ensure-topics', brokers: [...stackEndpoints().kafkaBrokers], logLevel: logLevel.NOTHING }));
    admin = kafka.admin();
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.disconnect();
  });

  it('creates the input, repair and DLQ topics with their partitions and retention, and a second call changes nothing', async () => {
    const config = defaultEdgestreamConfig({ topics: { prefix: `${uniqueName('it-topics')}.`, partitions: 4, replicationFactor: 1 } });
    const specs = topicSpecs(config);
    const first = await ensureTopics(admin, config);
    expect(first.created).toEqual(specs.map((s) => s.topic));

    const { topics } = await admin.fetchTopicMetadata({ topics: specs.map((s) => s.topic) });
    expect(Object.fromEntries(topics.map((t) => [t.name.slice(config.topics.prefix.length), t.partitions.length]))).toEqual({
      'edge-mutations': 4,
      'edge-mutations.repair': 4,
      'edge-mutations.dlq': 1,
      'wide-partitions': 4,
      'wide-partitions.dlq': 1,
      'split-plans': 4,
      'split-plans.dlq': 1,
      'split-results': 4,
      'split-results.dlq': 1,
    });
    const described = await admin.describeTopicConfigs(specs.map((s) => s.topic));
    const retention = Object.fromEntries(
      described.map((c) => [c.topic.slice(config.topics.prefix.length), c.entries.find((e) => e.name === 'retention.ms')?.value]),
    );
    expect(retention).toMatchObject({ 'edge-mutations': '604800000', 'edge-mutations.dlq': '2592000000' });

    expect(await ensureTopics(admin, config)).toEqual({ created: [], existing: specs.map((s) => s.topic) });
  });

  it('creates only what is missing next to an existing topic', async () => {
    const config = defaultEdgestreamConfig({ topics: { prefix: `${uniqueName('it-topics')}.`, partitions: 2, replicationFactor: 1 } });
    await createTopics(kafka, [`${config.topics.prefix}edge-mutations`], { numPartitions: 2 });
    const result = await ensureTopics(admin, config);
    expect(result.existing).toEqual([`${config.topics.prefix}edge-mutations`]);
    expect(result.created).toHaveLength(topicSpecs(config).length - 1);
  });

  it('refuses an existing input topic whose partition count differs from topics.partitions', async () => {
    const config = defaultEdgestreamConfig({ topics: { prefix: `${uniqueName('it-topics')}.`, partitions: 3, replicationFactor: 1 } });
    await createTopics(kafka, [`${config.topics.prefix}edge-mutations`], { numPartitions: 5 });
    const error = await ensureTopics(admin, config).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TopicError);
    expect(error).toMatchObject({ code: 'PARTITION_MISMATCH' });
  });
});
