import type { KafkaPort } from '../../streams/kafka/index.ts';
import { readTopicRange } from './readTopicRange.ts';
import type { PartitionRange } from './resolveOffsetRange.ts';

/** Records of a range whose event_time is before the resurrection horizon. */
export interface EventsPastHorizon {
  readonly count: number;
  /** The oldest of them, with its coordinates. */
  readonly oldest?: { readonly eventTimeMicros: bigint; readonly partition: number; readonly offset: string };
}

/**
 * Reads the range once and counts the events whose event_time is before
 * `horizonMicros`. The check is on event_time, not the Kafka timestamp: a DLQ
 * or replayed record is new to Kafka but carries its original event_time, and
 * that time is what its writes use. `eventTimeOf` returns undefined for a
 * record that cannot be decoded (it would be dead-lettered again and write
 * nothing) and throws when it cannot tell (registry unavailable).
 */
export async function findEventsPastHorizon(
  kafka: KafkaPort,
  topic: string,
  ranges: readonly PartitionRange[],
  eventTimeOf: (value: Buffer) => Promise<bigint | undefined>,
  horizonMicros: bigint,
): Promise<EventsPastHorizon> {
  let count = 0;
  let oldest: EventsPastHorizon['oldest'];
  await readTopicRange(kafka, topic, ranges, async (partition, m) => {
    const eventTimeMicros = m.value ? await eventTimeOf(m.value) : undefined;
    if (eventTimeMicros === undefined || eventTimeMicros >= horizonMicros) return;
    count++;
    if (oldest === undefined || eventTimeMicros < oldest.eventTimeMicros) oldest = { eventTimeMicros, partition, offset: m.offset };
  });
  return { count, ...(oldest === undefined ? {} : { oldest }) };
}
