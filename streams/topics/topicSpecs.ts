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

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Retention per role. The input and repair topics keep a week: long enough to
 * replay after an outage and to outlive the longest repair schedule
 * (`repairMaxAttempts · repairMaxBackoffMs` is minutes, not days). The DLQ keeps
 * a month, since a human reads it.
 */
const RETENTION_MS = { input: 7 * DAY_MS, repair: 7 * DAY_MS, dlq: 30 * DAY_MS } as const;

type Role = keyof typeof RETENTION_MS;

/**
 * The topics of the write path, in creation order. The input and repair topics
 * get `topics.partitions` partitions (the repair topic is keyed like its input,
 * so per-key order is kept while an event waits); the DLQ gets one, because it
 * is read by people and tools, not by a consumer group that needs parallelism.
 */
export function topicSpecs(config: EdgestreamConfig): TopicSpec[] {
  const { prefix, partitions, replicationFactor } = config.topics;
  const spec = (key: TopicKey, role: Role): TopicSpec => ({
    key,
    topic: topicName(prefix, key),
    numPartitions: role === 'dlq' ? 1 : partitions,
    replicationFactor,
    configEntries: [
      { name: 'cleanup.policy', value: 'delete' },
      { name: 'retention.ms', value: String(RETENTION_MS[role]) },
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
