import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { dlqTopicOf, repairTopicOf, topicName, type TopicKey } from './topicName.ts';

/** What `ensureTopics` creates for one topic. */
export interface TopicSpec {
  readonly key: TopicKey;
  readonly topic: string;
  readonly numPartitions: number;
  readonly replicationFactor: number;
  readonly configEntries: readonly { readonly name: string; readonly value: string }[];
}

/**
 * What every topic the project creates gets from `topics`: its replication factor and its
 * `min.insync.replicas`, which with the producers' acks=all decides how many replicas hold a
 * record before it is acknowledged.
 */
export function topicDurability(config: Pick<EdgestreamConfig, 'topics'>): { replicationFactor: number; configEntries: { name: string; value: string }[] } {
  return {
    replicationFactor: config.topics.replicationFactor,
    configEntries: [{ name: 'min.insync.replicas', value: String(config.topics.minInsyncReplicas) }],
  };
}

/**
 * Retention per role (config `retention`). The input and repair topics keep records
 * no longer than the resurrection horizon, so anything they hold can be replayed
 * safely; that is days, far longer than the longest repair schedule
 * (`repairMaxAttempts · repairMaxBackoffMs` is minutes). The DLQ keeps longer,
 * since a human reads it (replaying past the horizon needs `--force`).
 */
type Role = 'input' | 'repair' | 'dlq';

/**
 * The topics of the write path, in creation order. The input and repair topics
 * get `topics.partitions` partitions (the repair topic is keyed like its input,
 * so per-key order is kept while an event waits); the DLQ gets one, because it
 * is read by people and tools, not by a consumer group that needs parallelism.
 */
export function topicSpecs(config: EdgestreamConfig): TopicSpec[] {
  const { prefix, partitions } = config.topics;
  const durability = topicDurability(config);
  const retentionMs = { input: config.retention.topicRetentionMs, repair: config.retention.topicRetentionMs, dlq: config.retention.dlqRetentionMs };
  const spec = (key: TopicKey, role: Role): TopicSpec => ({
    key,
    topic: topicName(prefix, key),
    numPartitions: role === 'dlq' ? 1 : partitions,
    replicationFactor: durability.replicationFactor,
    configEntries: [
      ...durability.configEntries,
      { name: 'cleanup.policy', value: 'delete' },
      { name: 'retention.ms', value: String(retentionMs[role]) },
    ],
  });
  return [
    spec('edge-mutations', 'input'),
    spec(repairTopicOf('edge-mutations'), 'repair'),
    spec(dlqTopicOf('edge-mutations'), 'dlq'),
    // The wide-partition chain (§6): detection → planner → splitter → verifier; each stage's DLQ.
    spec('wide-partitions', 'input'),
    spec(dlqTopicOf('wide-partitions'), 'dlq'),
    spec('split-plans', 'input'),
    spec(dlqTopicOf('split-plans'), 'dlq'),
    spec('split-results', 'input'),
    spec(dlqTopicOf('split-results'), 'dlq'),
  ];
}
