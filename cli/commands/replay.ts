import type { KafkaPort, ProducedRecord, RecordHeaders } from '../../streams/kafka/index.ts';
import { describeResurrectionHorizon, resurrectionHorizonStartMicros, type EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { HEADERS } from '../../streams/runtime/failures/headers.ts';
import { dlqTopicOf, topicName } from '../../streams/topics/index.ts';
import { findEventsPastHorizon, type EventsPastHorizon } from '../kafka/findEventsPastHorizon.ts';
import { readTopicRange } from '../kafka/readTopicRange.ts';
import { resolveOffsetRange, type PartitionRange, type RangeFlags } from '../kafka/resolveOffsetRange.ts';
import { createProgress } from '../progress.ts';

export const REPLAYED_FROM_HEADER = 'edgestream-replayed-from';

/**
 * `edgestream replay`: re-publishes records of a topic (default: the input topic; `--dlq` the
 * dead-letter queue) within an offset or time range into the input topic, with their
 * original key and bytes. Processing is idempotent (LWW on event time, deterministic
 * writes), so a replayed event changes nothing that is already applied, as long as the
 * deletions it predates are still remembered: an event whose event_time is older than the
 * resurrection horizon (config `retention`) may predate a tombstone Cassandra has purged,
 * so such a range is refused unless `--force` (which warns). Nothing is published when refused.
 * The fan-out refuses such events too (DLQ `invalid`, field `event_time`) unless the record
 * carries `edgestream-replay-forced`, which `--force` sets on every record it re-publishes.
 */
export async function replayCommand(
  kafka: KafkaPort,
  config: EdgestreamConfig,
  flags: RangeFlags & { dlq: boolean; topic?: string; dryRun: boolean; force?: boolean },
  eventTimeOf: (value: Buffer) => Promise<bigint | undefined>,
  nowMs: number = Date.now(),
): Promise<number> {
  const target = topicName(config.topics.prefix, 'edge-mutations');
  const source = flags.topic ?? (flags.dlq ? topicName(config.topics.prefix, dlqTopicOf('edge-mutations')) : target);
  const admin = kafka.admin();
  await admin.connect();
  const ranges = await resolveOffsetRange(admin, source, flags).finally(() => admin.disconnect());
  const total = ranges.reduce((n, r) => n + Number(r.to - r.from), 0);
  await checkHorizon(kafka, config, source, ranges, eventTimeOf, nowMs, flags.force === true);
  console.error(`replaying ${total} record(s) from ${source} into ${target}${flags.dryRun ? ' (dry run)' : ''}`);
  if (flags.dryRun || total === 0) return 0;
  const producer = kafka.producer();
  await producer.connect();
  const progress = createProgress('replay', total);
  let pending: ProducedRecord[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    await producer.send({ topic: target, messages: pending });
    progress.add(pending.length);
    pending = [];
  };
  try {
    await readTopicRange(kafka, source, ranges, async (partition, m) => {
      if (!m.value) return;
      const headers: RecordHeaders = { [REPLAYED_FROM_HEADER]: `${source}/${partition}@${m.offset}`, ...(flags.force === true ? { [HEADERS.replayForced]: '1' } : {}) };
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

/** Thrown when a replay range reaches past the resurrection horizon without `--force`. */
export class ReplayRefusedError extends Error {
  override readonly name = 'ReplayRefusedError';
  readonly code = 'past_resurrection_horizon' as const;
}

async function checkHorizon(
  kafka: KafkaPort,
  config: EdgestreamConfig,
  source: string,
  ranges: readonly PartitionRange[],
  eventTimeOf: (value: Buffer) => Promise<bigint | undefined>,
  nowMs: number,
  force: boolean,
): Promise<void> {
  const found = await findEventsPastHorizon(kafka, source, ranges, eventTimeOf, resurrectionHorizonStartMicros(config, BigInt(nowMs) * 1000n));
  if (found.count === 0) return;
  const what = describePastHorizon(found, source, config);
  if (!force) throw new ReplayRefusedError(`replay refused: ${what}; narrow the range (--from-offset/--from-time) or pass --force to replay anyway`);
  console.error(`warning: --force: ${what}; the records are marked ${HEADERS.replayForced}, so the fan-out applies them`);
}

function describePastHorizon(found: EventsPastHorizon, source: string, config: EdgestreamConfig): string {
  const oldest = found.oldest;
  const at = oldest === undefined ? '' : `, the oldest ${new Date(Number(oldest.eventTimeMicros / 1000n)).toISOString()} at ${source}/${oldest.partition}@${oldest.offset}`;
  return (
    `${found.count} record(s) have an event_time older than ${describeResurrectionHorizon(config)}${at}; ` +
    'Cassandra may have purged the deletions they predate, so deleted properties could come back'
  );
}
