import type { CommittedOffset, KafkaAdmin, PartitionOffsets } from '../../streams/kafka/index.ts';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { edgePipelineGroups } from '../../streams/topology/edgePipelineGroups.ts';

export interface GroupLag {
  readonly group: string;
  readonly topic: string;
  /** Sum over partitions of (high watermark - committed offset); a partition with no commit counts from its low watermark. */
  readonly lag: number;
  readonly partitions: readonly { partition: number; committed: string; high: string; lag: number }[];
}

/** Lag of one consumer group on one topic (like kafka-consumer-groups --describe). */
export async function groupLag(admin: KafkaAdmin, group: string, topic: string): Promise<GroupLag> {
  const [watermarks, committed] = await Promise.all([admin.fetchTopicOffsets(topic), admin.fetchOffsets({ groupId: group, topics: [topic] })]);
  return lagFrom(group, topic, watermarks, committed[0]?.partitions ?? []);
}

/**
 * Lag of several groups at once (`lag`, the metrics poller, the demo's wait), each in the order given:
 * one metadata request for all their topics first (asked topic by topic in parallel, kafkajs refreshes
 * its metadata once per new topic, one after another: 370 ms of `lag`'s start against 60 ms, bench:cli),
 * then each topic's watermarks once, however many groups read it.
 */
export async function groupsLag<G extends { readonly group: string; readonly topic: string }>(admin: KafkaAdmin, groups: readonly G[]): Promise<(G & GroupLag)[]> {
  const topics = [...new Set(groups.map((g) => g.topic))];
  await admin.fetchTopicMetadata({ topics });
  const watermarks = new Map(await Promise.all(topics.map(async (t) => [t, await admin.fetchTopicOffsets(t)] as const)));
  return Promise.all(groups.map(async (g) => {
    const committed = await admin.fetchOffsets({ groupId: g.group, topics: [g.topic] });
    return { ...g, ...lagFrom(g.group, g.topic, watermarks.get(g.topic) ?? [], committed[0]?.partitions ?? []) };
  }));
}

function lagFrom(group: string, topic: string, watermarks: readonly PartitionOffsets[], committedOffsets: readonly CommittedOffset[]): GroupLag {
  const committed = new Map(committedOffsets.map((p) => [p.partition, p.offset]));
  const partitions = watermarks
    .map((w) => {
      const c = committed.get(w.partition);
      const from = c === undefined || c === '-1' ? BigInt(w.low) : BigInt(c);
      return { partition: w.partition, committed: c ?? '-1', high: w.high, lag: Number(BigInt(w.high) - from) };
    })
    .sort((a, b) => a.partition - b.partition);
  return { group, topic, lag: partitions.reduce((n, p) => n + p.lag, 0), partitions };
}

/** `edgestream lag`: consumer-group lag of every processor and the repair queue depth. */
export async function lagCommand(admin: KafkaAdmin, config: EdgestreamConfig, flags: { json: boolean }): Promise<GroupLag[]> {
  const rows = (await groupsLag(admin, edgePipelineGroups(config))).map(({ group, topic, lag, partitions }) => ({ group, topic, lag, partitions }));
  if (flags.json) {
    console.log(JSON.stringify(rows));
  } else {
    for (const r of rows) {
      const parts = r.partitions.map((p) => `${p.partition}:${p.lag}`).join(' ');
      console.log(`${r.group.padEnd(32)} ${r.topic.padEnd(40)} lag=${String(r.lag).padStart(8)}  [${parts}]`);
    }
    const repair = rows.find((r) => r.group.endsWith('repair'));
    console.log(`repair queue depth: ${repair?.lag ?? 0}`);
  }
  return rows;
}
