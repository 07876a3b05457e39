import type { KafkaPort } from '../../streams/kafka/index.ts';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { HEADERS } from '../../streams/runtime/failures/headers.ts';
import { dlqTopicOf, topicName } from '../../streams/topics/index.ts';
import { readTopicRange } from '../kafka/readTopicRange.ts';
import { resolveOffsetRange, type RangeFlags } from '../kafka/resolveOffsetRange.ts';

export interface DlqEntry {
  readonly partition: number;
  readonly offset: string;
  readonly key: string | null;
  readonly reason: string;
  readonly field?: string;
  readonly error?: string;
  readonly source?: string;
  readonly bytes: number;
}

const header = (headers: Record<string, unknown> | undefined, name: string): string | undefined => {
  const v = headers?.[name];
  return v === undefined ? undefined : Buffer.isBuffer(v) ? v.toString('utf8') : String(v);
};

/** Lists the dead-letter queue with the reason each record was parked (like kafka-console-consumer --property print.headers=true). */
export async function dlqCommand(kafka: KafkaPort, config: EdgestreamConfig, flags: RangeFlags & { json: boolean; limit?: number }): Promise<DlqEntry[]> {
  const topic = topicName(config.topics.prefix, dlqTopicOf('edge-mutations'));
  const admin = kafka.admin();
  await admin.connect();
  const ranges = await resolveOffsetRange(admin, topic, flags).finally(() => admin.disconnect());
  const entries: DlqEntry[] = [];
  await readTopicRange(kafka, topic, ranges, async (partition, m) => {
    const h = m.headers as Record<string, unknown> | undefined;
    const srcTopic = header(h, HEADERS.dlqSourceTopic);
    const entry: DlqEntry = {
      partition,
      offset: m.offset,
      key: m.key ? m.key.toString('utf8') : null,
      reason: header(h, HEADERS.dlqReason) ?? 'unknown',
      field: header(h, HEADERS.dlqField),
      error: header(h, HEADERS.dlqError),
      source: srcTopic ? `${srcTopic}/${header(h, HEADERS.dlqSourcePartition)}@${header(h, HEADERS.dlqSourceOffset)}` : undefined,
      bytes: m.value?.length ?? 0,
    };
    if (flags.limit === undefined || entries.length < flags.limit) entries.push(entry);
  });
  for (const e of entries) {
    if (flags.json) console.log(JSON.stringify(e));
    else console.log(`${e.partition}@${e.offset}\t${e.reason}${e.field ? ` (${e.field})` : ''}\tkey=${e.key ?? '-'}\tfrom=${e.source ?? '-'}\t${e.error ?? ''}`);
  }
  if (!flags.json) console.error(`${entries.length} record(s) in ${topic}`);
  return entries;
}
