import { Admin, ConfigResourceTypes, ConfigSources, findErrorBy, type BaseOptions } from '@platformatic/kafka';
import type { GroupDescription, KafkaAdmin, PartitionOffsets, TopicToCreate } from '../KafkaPort.ts';
import { withRetriable } from './platformaticErrors.ts';

/** ListOffsets' special timestamps: the log's start and its end. */
const EARLIEST = -2n;
const LATEST = -1n;
const LEADER_POLL_MS = 100;

/** Kafka's names of group states, for the upper-case ones of newer DescribeGroups versions. */
const STATE_NAMES: Record<string, string> = { PREPARING_REBALANCE: 'PreparingRebalance', COMPLETING_REBALANCE: 'CompletingRebalance', STABLE: 'Stable', DEAD: 'Dead', EMPTY: 'Empty' };

/** The port's admin client on @platformatic/kafka. Every rejection carries kafkajs' `retriable` flag. */
export function platformaticAdmin(base: BaseOptions, retries: number | undefined): KafkaAdmin {
  const admin = new Admin({ ...base, ...(retries === undefined ? {} : { retries }) });
  const guarded = <A extends unknown[], R>(f: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    try {
      return await f(...args);
    } catch (e) {
      throw withRetriable(e);
    }
  };
  const partitionIds = async (topic: string): Promise<number[]> => {
    const metadata = await admin.metadata({ topics: [topic], forceUpdate: true });
    const count = metadata.topics.get(topic)?.partitionsCount ?? 0;
    return Array.from({ length: count }, (_, i) => i);
  };
  const listOffsets = async (topic: string, timestamp: bigint): Promise<Map<number, bigint>> => {
    const partitions = await partitionIds(topic);
    const [listed] = await admin.listOffsets({ topics: [{ name: topic, partitions: partitions.map((partitionIndex) => ({ partitionIndex, timestamp })) }] });
    return new Map((listed?.partitions ?? []).map((p) => [p.partitionIndex, p.offset]));
  };
  const fetchTopicOffsets = async (topic: string): Promise<PartitionOffsets[]> => {
    const [low, high] = await Promise.all([listOffsets(topic, EARLIEST), listOffsets(topic, LATEST)]);
    return [...high].sort(([a], [b]) => a - b).map(([partition, h]) => ({ partition, low: (low.get(partition) ?? 0n).toString(), high: h.toString() }));
  };
  const createTopic = async (t: TopicToCreate): Promise<boolean> => {
    try {
      await admin.createTopics({ topics: [t.topic], partitions: t.numPartitions, replicas: t.replicationFactor, configs: (t.configEntries ?? []).map((e) => ({ ...e })) });
      return true;
    } catch (e) {
      if (findErrorBy(e as Error, 'apiId', 'TOPIC_ALREADY_EXISTS') !== null) return false;
      throw e;
    }
  };
  const waitForLeaders = async (topics: readonly string[], timeoutMs: number): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const metadata = await admin.metadata({ topics: [...topics], forceUpdate: true }).catch(() => undefined);
      const led = metadata !== undefined && topics.every((t) => { const m = metadata.topics.get(t); return m !== undefined && m.partitions.every((p) => p.leader >= 0); });
      if (led) return;
      if (Date.now() > deadline) throw new Error(`topics ${topics.join(', ')} have no leader for every partition after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, LEADER_POLL_MS));
    }
  };
  return {
    connect: guarded(async () => void (await admin.listApis())),
    disconnect: () => admin.close(),
    describeCluster: guarded(async () => {
      const metadata = await admin.metadata({ topics: [], forceUpdate: true });
      return { clusterId: metadata.id, brokers: [...metadata.brokers].map(([nodeId, b]) => ({ nodeId, host: b.host, port: b.port })) };
    }),
    listTopics: guarded(() => admin.listTopics({ includeInternals: true })),
    createTopics: guarded(async ({ topics, waitForLeaders: wait, timeout }) => {
      const created = await Promise.all(topics.map(createTopic));
      if (wait === true) await waitForLeaders(topics.map((t) => t.topic), timeout ?? 5_000);
      return created.some(Boolean);
    }),
    deleteTopics: guarded(({ topics }) => admin.deleteTopics({ topics: [...topics] })),
    fetchTopicMetadata: guarded(async ({ topics }) => {
      const metadata = await admin.metadata({ topics: [...topics], forceUpdate: true });
      return {
        topics: topics.map((name) => ({
          name,
          partitions: (metadata.topics.get(name)?.partitions ?? []).map((p, partitionId) => ({ partitionId, leader: p.leader, replicas: [...p.replicas] })),
        })),
      };
    }),
    describeTopicConfigs: guarded(async (topics) => {
      const described = await admin.describeConfigs({ resources: topics.map((resourceName) => ({ resourceType: ConfigResourceTypes.TOPIC, resourceName })), includeSynonyms: false });
      return described.map((r) => ({
        topic: r.resourceName,
        entries: r.configs.map((c) => ({ name: c.name, value: c.value ?? '', topicOverride: c.configSource === ConfigSources.DYNAMIC_TOPIC_CONFIG })),
      }));
    }),
    alterTopicConfigs: guarded((topic, entries) =>
      admin.alterConfigs({ validateOnly: false, resources: [{ resourceType: ConfigResourceTypes.TOPIC, resourceName: topic, configs: entries.map((e) => ({ ...e })) }] }),
    ),
    fetchTopicOffsets: guarded(fetchTopicOffsets),
    fetchTopicOffsetsByTimestamp: guarded(async (topic, timestampMs) => {
      const [at, high] = await Promise.all([listOffsets(topic, BigInt(timestampMs)), listOffsets(topic, LATEST)]);
      // No record at or after the timestamp: the broker answers -1; the port's answer is the end.
      return [...high].sort(([a], [b]) => a - b).map(([partition, h]) => {
        const offset = at.get(partition) ?? -1n;
        return { partition, offset: (offset < 0n ? h : offset).toString() };
      });
    }),
    fetchOffsets: guarded(async ({ groupId, topics }) => {
      const withPartitions = await Promise.all(topics.map(async (name) => ({ name, partitionIndexes: await partitionIds(name) })));
      const [group] = await admin.listConsumerGroupOffsets({ groups: [{ groupId, topics: withPartitions }] });
      return withPartitions.map(({ name, partitionIndexes }) => {
        const committed = new Map((group?.topics.find((t) => t.name === name)?.partitions ?? []).map((p) => [p.partitionIndex, p.committedOffset]));
        return { topic: name, partitions: partitionIndexes.map((partition) => ({ partition, offset: (committed.get(partition) ?? -1n).toString() })) };
      });
    }),
    describeGroup: guarded(async (groupId): Promise<GroupDescription> => {
      const group = (await admin.describeGroups({ groups: [groupId] })).get(groupId);
      if (group === undefined) throw new Error(`describeGroups answered nothing for group ${groupId}`);
      return {
        groupId,
        state: STATE_NAMES[group.state] ?? group.state,
        members: [...group.members.values()].map((m) => ({
          memberId: m.id,
          clientId: m.clientId,
          assignment: Object.fromEntries([...(m.assignments?.values() ?? [])].map((a) => [a.topic, [...a.partitions]])),
        })),
      };
    }),
    deleteGroups: guarded((groupIds) => admin.deleteGroups({ groups: [...groupIds] })),
    setGroupOffsets: guarded(({ groupId, topic, partitions }) =>
      admin.alterConsumerGroupOffsets({ groupId, topics: [{ name: topic, partitionOffsets: partitions.map((p) => ({ partition: p.partition, offset: BigInt(p.offset) })) }] }),
    ),
  };
}
