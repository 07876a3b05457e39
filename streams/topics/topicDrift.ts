import type { KafkaAdmin } from '../kafka/index.ts';
import type { ConfigDrift } from '../../schemas/config/configDrift.ts';
import type { TopicSpec } from './topicSpecs.ts';

export type DriftAdmin = Pick<KafkaAdmin, 'fetchTopicMetadata' | 'describeTopicConfigs' | 'alterTopicConfigs'>;

/** What an existing topic has of the settings the config decides. */
export interface ObservedTopic {
  readonly topic: string;
  readonly partitions: number;
  /** The fewest replicas any of its partitions has. */
  readonly replicationFactor: number;
  /** Its `min.insync.replicas` (the broker default when the topic sets none). */
  readonly minInsyncReplicas: number;
  /** Its topic-level (dynamic) config entries: the whole set AlterConfigs must resend. */
  readonly dynamicConfig: readonly { readonly name: string; readonly value: string }[];
}

const MIN_ISR = 'min.insync.replicas';

/** Reads partitions, replicas and min.insync.replicas of the topics (all must exist). */
export async function observeTopics(admin: DriftAdmin, topics: readonly string[]): Promise<ObservedTopic[]> {
  if (topics.length === 0) return [];
  const { topics: metadata } = await admin.fetchTopicMetadata({ topics: [...topics] });
  const configs = await admin.describeTopicConfigs(topics);
  return topics.map((topic) => {
    const meta = metadata.find((t) => t.name === topic);
    const entries = configs.find((c) => c.topic === topic)?.entries ?? [];
    return {
      topic,
      partitions: meta?.partitions.length ?? 0,
      replicationFactor: Math.min(...(meta?.partitions.map((p) => p.replicas.length) ?? [0])),
      minInsyncReplicas: Number(entries.find((e) => e.name === MIN_ISR)?.value ?? '1'),
      dynamicConfig: entries.filter((e) => e.topicOverride).map((e) => ({ name: e.name, value: e.value })),
    };
  });
}

/**
 * How an existing topic differs from its spec. Only `min.insync.replicas` is changed by
 * `init --apply`. Partitions are not added: a key's partition is its hash modulo the count, so
 * more partitions move keys while older events of them wait in the old partition, and per-key
 * order (which the fan-out's read-before-write relies on) breaks. Replicas move by reassignment,
 * which copies whole partitions between brokers: the operator's call.
 */
export function topicDrift(spec: TopicSpec, observed: ObservedTopic, bootstrap: string): ConfigDrift[] {
  const subject = `topic ${spec.topic}`;
  const drift: ConfigDrift[] = [];
  if (observed.partitions !== spec.numPartitions) {
    const configName = spec.numPartitions === 1 ? 'a dead-letter topic has' : 'config topics.partitions';
    drift.push({
      subject,
      difference: `${observed.partitions} partitions, ${configName} ${spec.numPartitions}`,
      fix: 'manual',
      command:
        observed.partitions < spec.numPartitions
          ? `adding partitions moves keys to other partitions while their older events wait in the old ones (per-key order breaks); either set topics.partitions to ${observed.partitions}, or stop the producers, let every consumer group reach lag 0, run kafka-topics.sh --bootstrap-server ${bootstrap} --alter --topic ${spec.topic} --partitions ${spec.numPartitions}, then restart`
          : `Kafka cannot remove partitions: set topics.partitions to ${observed.partitions}, or recreate the topic (and replay into it)`,
    });
  }
  const wantedRf = spec.replicationFactor;
  if (observed.replicationFactor !== wantedRf) {
    drift.push({
      subject,
      difference: `replication factor ${observed.replicationFactor}, config topics.replicationFactor ${wantedRf}`,
      fix: 'manual',
      command: `reassign its partitions: kafka-reassign-partitions.sh --bootstrap-server ${bootstrap} --topics-to-move-json-file topics.json --broker-list <${wantedRf} or more broker ids> --generate, edit the proposal to ${wantedRf} replicas per partition, then --reassignment-json-file plan.json --execute (and --verify)`,
    });
  }
  const wantedIsr = spec.configEntries.find((e) => e.name === MIN_ISR)?.value;
  if (wantedIsr !== undefined && String(observed.minInsyncReplicas) !== wantedIsr) {
    drift.push({ subject, difference: `min.insync.replicas ${observed.minInsyncReplicas}, config topics.minInsyncReplicas ${wantedIsr}`, fix: 'apply' });
  }
  return drift;
}

/**
 * `init --apply`: sets the spec's min.insync.replicas on the topic. AlterConfigs replaces the
 * topic's whole set of overrides, so every other override it has (retention.ms, …) is resent as is.
 */
export async function applyMinInsyncReplicas(admin: DriftAdmin, spec: TopicSpec, observed: ObservedTopic): Promise<void> {
  const wanted = spec.configEntries.find((e) => e.name === MIN_ISR);
  if (wanted === undefined) return;
  await admin.alterTopicConfigs(spec.topic, [...observed.dynamicConfig.filter((e) => e.name !== MIN_ISR), wanted].map((e) => ({ name: e.name, value: e.value })));
}
