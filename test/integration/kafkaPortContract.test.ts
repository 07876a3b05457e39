import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchPayload, KafkaAdmin, KafkaConnection, KafkaConsumer, KafkaPort } from '../../streams/kafka/index.ts';
import { createKafkajsPort } from '../../streams/kafka/kafkajs/index.ts';
import { createPlatformaticPort } from '../../streams/kafka/platformatic/index.ts';
import { stackEndpoints } from '../support/stack.ts';

/**
 * The Kafka port's contract, on the real broker, for every adapter: what the runtime, the CLI
 * and the server rely on (keyed partitioning, manual commits, pause/resume, seek, group joins,
 * rebalances, the admin side and the group operations the tests use).
 */
const ADAPTERS: [string, (c: KafkaConnection) => KafkaPort][] = [
  ['kafkajs', createKafkajsPort],
  ['platformatic', createPlatformaticPort],
];

const PARTITIONS = 3;

describe.each(ADAPTERS)('the Kafka port on %s', (name, createPort) => {
  const rand = randomBytes(4).toString('hex');
  const topic = `contract.${name}.${rand}`;
  const lingerTopic = `${topic}.linger`;
  const groups: string[] = [];
  const consumers: KafkaConsumer[] = [];
  let kafka: KafkaPort;
  let admin: KafkaAdmin;
  const group = (tag: string): string => {
    const g = `contract-${name}-${tag}-${rand}`;
    groups.push(g);
    return g;
  };
  /** Seen records per partition, as `key@offset`. */
  const keys = Array.from({ length: 60 }, (_, i) => `user-${i}`);

  beforeAll(async () => {
    kafka = createPort({ clientId: `contract-${name}`, brokers: stackEndpoints().kafkaBrokers });
    admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: PARTITIONS, replicationFactor: 1 }], waitForLeaders: true });
    const producer = kafka.producer();
    await producer.connect();
    // Two sends, the second after a pause, so that offsets by timestamp have a boundary to find.
    await producer.send({ topic, messages: keys.slice(0, 30).map((key, i) => ({ key, value: `v${i}`, headers: { n: String(i) } })) });
    await new Promise((r) => setTimeout(r, 50));
    await producer.send({ topic, messages: keys.slice(30).map((key, i) => ({ key, value: Buffer.from(`v${30 + i}`) })) });
    await producer.disconnect();
  });

  afterAll(async () => {
    await Promise.all(consumers.map((c) => c.disconnect().catch(() => undefined)));
    await admin.deleteGroups(groups).catch(() => undefined);
    await admin.deleteTopics({ topics: [topic, lingerTopic] }).catch(() => undefined);
    await admin.disconnect();
  });

  /** A consumer in `groupId` from the beginning, handing every batch to `onBatch`. */
  const consume = async (groupId: string, onBatch: (p: BatchPayload) => Promise<void>, setup?: (c: KafkaConsumer) => void): Promise<KafkaConsumer> => {
    const c = kafka.consumer({ groupId, sessionTimeoutMs: 10_000, maxWaitTimeMs: 200 });
    consumers.push(c);
    setup?.(c);
    await c.connect();
    await c.subscribe({ topics: [topic], fromBeginning: true });
    await c.run({ eachBatch: onBatch });
    return c;
  };
  const stop = async (c: KafkaConsumer): Promise<void> => {
    consumers.splice(consumers.indexOf(c), 1);
    await c.disconnect();
  };

  it('produces idempotently with acks, and every keyed record lands in the partition partitionForKey names', async () => {
    const seen = new Map<string, { partition: number; value: string; header?: string }>();
    const c = await consume(group('read'), async ({ batch, resolveOffset }) => {
      for (const m of batch.messages) {
        seen.set(m.key?.toString() ?? '', { partition: batch.partition, value: m.value?.toString() ?? '', ...(m.headers?.['n'] ? { header: m.headers['n'].toString() } : {}) });
        resolveOffset(m.offset);
      }
    });
    await expect.poll(() => seen.size, { timeout: 30_000 }).toBe(keys.length);
    await stop(c);
    for (const [i, key] of keys.entries()) {
      expect(seen.get(key)).toEqual({ partition: kafka.partitionForKey(key, PARTITIONS), value: `v${i}`, ...(i < 30 ? { header: String(i) } : {}) });
    }
    // Every partition got some: the partitioner spreads keys.
    expect(new Set([...seen.values()].map((s) => s.partition)).size).toBe(PARTITIONS);
  });

  it('tells the partition of each record before sending it, and acknowledges each partition with its base offset', async () => {
    const told: [string, number][] = [];
    const producer = kafka.producer({ onPartitioned: (record, partition) => void told.push([String(record.key), partition]) });
    await producer.connect();
    const before = await admin.fetchTopicOffsets(topic);
    const acks = await producer.send({ topic, messages: ['x-1', 'x-2', 'x-3'].map((key) => ({ key, value: key })) });
    await producer.disconnect();
    expect(told).toEqual(['x-1', 'x-2', 'x-3'].map((k) => [k, kafka.partitionForKey(k, PARTITIONS)]));
    for (const ack of acks) {
      expect(ack.topicName).toBe(topic);
      expect(ack.baseOffset).toBe(before.find((p) => p.partition === ack.partition)?.high);
    }
    expect(new Set(acks.map((a) => a.partition))).toEqual(new Set(told.map(([, p]) => p)));
  });

  it('resumes a restarted group after what it committed, not after what it merely saw', async () => {
    const groupId = group('resume');
    const partition = kafka.partitionForKey(keys[0] as string, PARTITIONS);
    const firstRun: string[] = [];
    const c1 = await consume(groupId, async ({ batch, resolveOffset, commitOffsetsIfNecessary }) => {
      if (batch.partition !== partition) return;
      for (const m of batch.messages) firstRun.push(m.offset);
      // Commit only past the second record; the rest was seen, not committed.
      const second = batch.messages[1];
      if (second && firstRun.length === batch.messages.length) {
        resolveOffset(second.offset);
        await commitOffsetsIfNecessary({ topics: [{ topic, partitions: [{ partition, offset: (BigInt(second.offset) + 1n).toString() }] }] });
      }
    });
    await expect.poll(() => firstRun.length, { timeout: 30_000 }).toBeGreaterThan(2);
    await stop(c1);
    expect((await admin.fetchOffsets({ groupId, topics: [topic] }))[0]?.partitions.find((p) => p.partition === partition)?.offset).toBe('2');
    const secondRun: string[] = [];
    const c2 = await consume(groupId, async ({ batch, resolveOffset }) => {
      if (batch.partition !== partition) return;
      for (const m of batch.messages) {
        secondRun.push(m.offset);
        resolveOffset(m.offset);
      }
    });
    await expect.poll(() => secondRun.length, { timeout: 30_000 }).toBeGreaterThan(0);
    await stop(c2);
    expect(secondRun[0]).toBe('2');
  });

  it('re-delivers an unresolved batch, stops fetching a paused partition and fetches it again from its last resolved offset once resumed', async () => {
    const partition = kafka.partitionForKey(keys[0] as string, PARTITIONS);
    const deliveries: string[][] = [];
    let resume: (() => void) | undefined;
    const c = await consume(group('pause'), async ({ batch, resolveOffset, pause }) => {
      if (batch.partition !== partition) return;
      deliveries.push(batch.messages.map((m) => m.offset));
      if (deliveries.length === 1) return; // nothing resolved: the same records come again
      if (deliveries.length === 2) {
        resolveOffset(batch.messages[0]?.offset as string);
        resume = pause();
      }
    });
    await expect.poll(() => deliveries.length, { timeout: 30_000 }).toBe(2);
    expect(deliveries[1]?.[0]).toBe(deliveries[0]?.[0]);
    // Paused: nothing more while other partitions keep being fetched.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(deliveries).toHaveLength(2);
    resume?.();
    await expect.poll(() => deliveries.length, { timeout: 30_000 }).toBeGreaterThan(2);
    await stop(c);
    expect(deliveries[2]?.[0]).toBe((BigInt(deliveries[0]?.[0] as string) + 1n).toString());
  });

  it('seeks from onGroupJoin before anything of the assignment is fetched', async () => {
    const firsts = new Map<number, string>();
    const c = await consume(
      group('seek'),
      async ({ batch, resolveOffset }) => {
        if (!firsts.has(batch.partition)) firsts.set(batch.partition, batch.messages[0]?.offset as string);
        for (const m of batch.messages) resolveOffset(m.offset);
      },
      (consumer) =>
        consumer.onGroupJoin((assignment) => {
          for (const p of assignment[topic] ?? []) consumer.seek({ topic, partition: p, offset: '3' });
        }),
    );
    await expect.poll(() => firsts.size, { timeout: 30_000 }).toBe(PARTITIONS);
    await stop(c);
    expect([...firsts.values()]).toEqual(Array(PARTITIONS).fill('3'));
  });

  it('divides the partitions between two members of one group: the first is told of the rebalance, both of their joins', async () => {
    const groupId = group('rebalance');
    const joins: { member: string; assignment: readonly number[] }[] = [];
    let rebalanced = 0;
    const a = await consume(groupId, async () => {}, (c) => {
      c.onGroupJoin((assignment) => void joins.push({ member: 'a', assignment: assignment[topic] ?? [] }));
      c.onRebalancing(() => void rebalanced++);
    });
    await expect.poll(() => joins.length, { timeout: 30_000 }).toBe(1);
    expect([...(joins[0]?.assignment ?? [])].sort()).toEqual([0, 1, 2]);
    const b = await consume(groupId, async () => {}, (c) => c.onGroupJoin((assignment) => void joins.push({ member: 'b', assignment: assignment[topic] ?? [] })));
    await expect.poll(() => new Set(joins.slice(1).map((j) => j.member)).size, { timeout: 60_000 }).toBe(2);
    expect(rebalanced).toBeGreaterThan(0);
    const last = (member: string) => [...(joins.findLast((j) => j.member === member)?.assignment ?? [])];
    expect([...last('a'), ...last('b')].sort()).toEqual([0, 1, 2]);
    expect(last('a').length).toBeGreaterThan(0);
    expect(last('b').length).toBeGreaterThan(0);
    const described = await admin.describeGroup(groupId);
    expect(described.state).toBe('Stable');
    expect(described.members.flatMap((m) => m.assignment[topic] ?? []).sort()).toEqual([0, 1, 2]);
    await stop(b);
    await stop(a);
    await expect.poll(async () => (await admin.describeGroup(groupId)).state, { timeout: 30_000 }).toBe('Empty');
  });

  it('creates topics with configs, reads them with their override flag, and replaces the overrides', async () => {
    const other = `${topic}.configs`;
    expect(await admin.createTopics({ topics: [{ topic: other, numPartitions: 2, replicationFactor: 1, configEntries: [{ name: 'retention.ms', value: '3600000' }] }], waitForLeaders: true })).toBe(true);
    expect(await admin.createTopics({ topics: [{ topic: other, numPartitions: 2, replicationFactor: 1 }] })).toBe(false);
    expect(await admin.listTopics()).toContain(other);
    const metadata = await admin.fetchTopicMetadata({ topics: [other] });
    expect(metadata.topics[0]?.partitions.map((p) => p.partitionId).sort()).toEqual([0, 1]);
    expect(metadata.topics[0]?.partitions.every((p) => p.leader >= 0 && p.replicas.length === 1)).toBe(true);
    const entry = async (configName: string) => (await admin.describeTopicConfigs([other]))[0]?.entries.find((e) => e.name === configName);
    expect(await entry('retention.ms')).toEqual({ name: 'retention.ms', value: '3600000', topicOverride: true });
    expect((await entry('cleanup.policy'))?.topicOverride).toBe(false);
    await admin.alterTopicConfigs(other, [{ name: 'cleanup.policy', value: 'compact' }]);
    await expect.poll(async () => [await entry('cleanup.policy'), (await entry('retention.ms'))?.topicOverride], { timeout: 10_000 }).toEqual([
      { name: 'cleanup.policy', value: 'compact', topicOverride: true },
      false,
    ]);
    const cluster = await admin.describeCluster();
    expect(cluster.brokers.length).toBeGreaterThan(0);
    expect(cluster.clusterId).not.toBe('');
    await admin.deleteTopics({ topics: [other] });
  });

  it('answers offsets: per partition low and high, by timestamp, and a group\'s commits, which it can set and delete', async () => {
    const offsets = (await admin.fetchTopicOffsets(topic)).toSorted((a, b) => a.partition - b.partition);
    expect(offsets.map((p) => p.partition)).toEqual([0, 1, 2]);
    // The keys, and the three records of the acknowledgement test when it ran before.
    expect(offsets.reduce((n, p) => n + Number(BigInt(p.high) - BigInt(p.low)), 0)).toBeGreaterThanOrEqual(keys.length);
    // Before everything: the start; after everything: the end.
    const byTimestamp = async (ms: number) => (await admin.fetchTopicOffsetsByTimestamp(topic, ms)).toSorted((a, b) => a.partition - b.partition);
    expect(await byTimestamp(0)).toEqual(offsets.map((p) => ({ partition: p.partition, offset: p.low })));
    expect(await byTimestamp(Date.now() + 60_000)).toEqual(offsets.map((p) => ({ partition: p.partition, offset: p.high })));
    const groupId = group('offsets');
    const committed = async () => (await admin.fetchOffsets({ groupId, topics: [topic] })).map((t) => ({ topic: t.topic, partitions: t.partitions.map(({ partition, offset }) => ({ partition, offset })).toSorted((a, b) => a.partition - b.partition) }));
    expect(await committed()).toEqual([{ topic, partitions: [0, 1, 2].map((partition) => ({ partition, offset: '-1' })) }]);
    await admin.setGroupOffsets({ groupId, topic, partitions: [{ partition: 1, offset: '2' }] });
    expect((await committed())[0]?.partitions).toEqual([
      { partition: 0, offset: '-1' },
      { partition: 1, offset: '2' },
      { partition: 2, offset: '-1' },
    ]);
    expect((await admin.describeGroup(groupId)).state).toBe('Empty');
    await admin.deleteGroups([groupId]);
    expect((await admin.describeGroup(groupId)).state).toBe('Dead');
  });

  it('with minBytes, a fetch waits for them up to maxWaitTimeMs: records produced one by one during the wait come as one batch', async () => {
    await admin.createTopics({ topics: [{ topic: lingerTopic, numPartitions: 1, replicationFactor: 1 }], waitForLeaders: true });
    const batches: number[] = [];
    let joined = false;
    const c = kafka.consumer({ groupId: group('linger'), sessionTimeoutMs: 10_000, maxWaitTimeMs: 4_000, minBytes: 65_536 });
    consumers.push(c);
    c.onGroupJoin(() => (joined = true));
    await c.connect();
    await c.subscribe({ topics: [lingerTopic], fromBeginning: true });
    await c.run({ eachBatch: async ({ batch, resolveOffset }) => {
      if (batch.messages.length > 0) batches.push(batch.messages.length);
      for (const m of batch.messages) resolveOffset(m.offset);
    } });
    await expect.poll(() => joined, { timeout: 30_000 }).toBe(true);
    await new Promise((r) => setTimeout(r, 500)); // the first fetch is waiting
    const producer = kafka.producer();
    await producer.connect();
    // Ten records, 30 ms apart: with minBytes 1 each fetch would return the one that is there.
    for (let i = 0; i < 10; i++) {
      await producer.send({ topic: lingerTopic, messages: [{ key: `k${i}`, value: `v${i}` }] });
      await new Promise((r) => setTimeout(r, 30));
    }
    await producer.disconnect();
    await expect.poll(() => batches.reduce((a, b) => a + b, 0), { timeout: 30_000 }).toBe(10);
    await stop(c);
    // One batch, or two if a fetch's wait ran out while they were produced.
    expect(batches.length).toBeLessThanOrEqual(2);
  });
});

describe('partitionForKey', () => {
  it('is the same function in both adapters', () => {
    const [kafkajs, platformatic] = ADAPTERS.map(([, create]) => create({ clientId: 'p', brokers: ['127.0.0.1:1'] }));
    for (let i = 0; i < 2_000; i++) {
      const key = `${i}:${randomBytes(i % 23).toString('hex')}`;
      for (const n of [1, 3, 6, 7, 64]) expect(platformatic?.partitionForKey(key, n)).toBe(kafkajs?.partitionForKey(key, n));
    }
  });
});
