import { Partitioners, type IHeaders, type Kafka, type Message } from 'kafkajs';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { dlqTopicOf, topicName } from '../../streams/topics/index.ts';
import { readTopicRange } from '../kafka/readTopicRange.ts';
import { resolveOffsetRange, type RangeFlags } from '../kafka/resolveOffsetRange.ts';
import { createProgress } from '../progress.ts';

export const REPLAYED_FROM_HEADER = 'edgestream-replayed-from';

/**
 * `edgestream replay`: re-publishes records of a topic (default: the input topic; `--dlq` the
 * dead-letter queue) within an offset or time range into the input topic, with their
 * original key and bytes. Safe at any time: processing is idempotent (LWW on event time,
 * deterministic writes), so a replayed event changes nothing that is already applied.
 */
export async function replayCommand(kafka: Kafka, config: EdgestreamConfig, flags: RangeFlags & { dlq: boolean; topic?: string; dryRun: boolean }): Promise<number> {
  const target = topicName(config.topics.prefix, 'edge-mutations');
  const source = flags.topic ?? (flags.dlq ? topicName(config.topics.prefix, dlqTopicOf('edge-mutations')) : target);
  const admin = kafka.admin();
  await admin.connect();
  const ranges = await resolveOffsetRange(admin, source, flags).finally(() => admin.disconnect());
  const total = ranges.reduce((n, r) => n + Number(r.to - r.from), 0);
  console.error(`replaying ${total} record(s) from ${source} into ${target}${flags.dryRun ? ' (dry run)' : ''}`);
  if (flags.dryRun || total === 0) return 0;
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  const progress = createProgress('replay', total);
  let pending: Message[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    await producer.send({ topic: target, acks: -1, messages: pending });
    progress.add(pending.length);
    pending = [];
  };
  try {
    await readTopicRange(kafka, source, ranges, async (partition, m) => {
      if (!m.value) return;
      const headers: IHeaders = { [REPLAYED_FROM_HEADER]: `${source}/${partition}@${m.offset}` };
      pending.push({ key: m.key, value: m.value, headers });
      if (pending.length >= 500) await flush();
    });
    await flush();
  } finally {
    progress.done();
    await producer.disconnect();
  }
  return total;
}
