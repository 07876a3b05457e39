import type { KafkaAdmin } from '../kafka/index.ts';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { TopicError } from './TopicError.ts';
import { topicSpecs, type TopicSpec } from './topicSpecs.ts';

export type TopicAdmin = Pick<KafkaAdmin, 'listTopics' | 'createTopics' | 'fetchTopicMetadata'>;

export interface EnsureTopicsResult {
  readonly created: readonly string[];
  readonly existing: readonly string[];
}

/**
 * Creates the write path's topics explicitly (the stack runs with
 * auto.create.topics.enable=false) and waits until every partition has a
 * leader. Idempotent: existing topics are left as they are, but one whose
 * partition count differs from the config is an error, because the partition
 * count is `fixed` (it decides which partition a key lands on).
 *
 * kafkajs `createTopics` reports "already exists" for the whole call and then
 * skips waiting for leaders, so this creates only the missing topics and waits
 * for leaders itself. kafkajs's own wait is off: on several brokers a broker that
 * has not yet seen the new topic answers "does not host this topic-partition",
 * which that wait throws at once (init failed so on the local 3-broker cluster).
 */
export async function ensureTopics(
  admin: TopicAdmin,
  config: EdgestreamConfig,
  { specs = topicSpecs(config), timeoutMs = 30_000 }: { specs?: readonly TopicSpec[]; timeoutMs?: number } = {},
): Promise<EnsureTopicsResult> {
  const present = new Set(await admin.listTopics());
  const missing = specs.filter((s) => !present.has(s.topic));
  if (missing.length > 0) {
    await admin.createTopics({
      topics: missing.map((s) => ({
        topic: s.topic,
        numPartitions: s.numPartitions,
        replicationFactor: s.replicationFactor,
        configEntries: s.configEntries.map((e) => ({ ...e })),
      })),
      waitForLeaders: false,
      timeout: timeoutMs,
    });
  }
  await waitForLeaders(admin, specs, timeoutMs);
  return {
    created: missing.map((s) => s.topic),
    existing: specs.filter((s) => present.has(s.topic)).map((s) => s.topic),
  };
}

/**
 * Waits until every partition of `specs` has a leader, asking again every 100 ms and taking a
 * failed metadata request as "not yet" (a broker that has not yet seen a new topic answers
 * "does not host this topic-partition", which kafkajs's own `waitForLeaders` throws at once).
 */
export async function waitForLeaders(admin: Pick<TopicAdmin, 'fetchTopicMetadata'>, specs: readonly Pick<TopicSpec, 'topic' | 'numPartitions'>[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let problem: string | undefined;
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: specs.map((s) => s.topic) });
      for (const spec of specs) {
        const meta = topics.find((t) => t.name === spec.topic);
        const count = meta?.partitions.length ?? 0;
        if (meta && count !== spec.numPartitions) {
          throw new TopicError(
            'PARTITION_MISMATCH',
            `topic ${spec.topic} has ${count} partitions but the config says ${spec.numPartitions} (topics.partitions is fixed after first use)`,
          );
        }
        if (!meta || meta.partitions.some((p) => p.leader < 0)) problem = `${spec.topic} has partitions without a leader`;
      }
    } catch (e) {
      if (e instanceof TopicError) throw e;
      problem = e instanceof Error ? e.message : String(e);
    }
    if (problem === undefined) return;
    if (Date.now() >= deadline) throw new TopicError('LEADERS_UNAVAILABLE', `timed out after ${timeoutMs} ms: ${problem}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
