import type { KafkaAdmin } from '../../streams/kafka/index.ts';
import { parsePartitionOffsets, parseTimeFlag } from './parsePartitionOffsets.ts';

/** Half-open offset range [from, to) of one partition. */
export interface PartitionRange {
  readonly partition: number;
  readonly from: bigint;
  readonly to: bigint;
}

export interface RangeFlags {
  readonly fromOffset?: string;
  readonly toOffset?: string;
  readonly fromTime?: string;
  readonly toTime?: string;
}

/**
 * Turns replay-style flags into per-partition [from, to) ranges over what the topic
 * holds now (the high watermark is snapshotted, so a range never chases new writes).
 * Offsets and times may be mixed; a time resolves to the first offset at or after it.
 */
export async function resolveOffsetRange(admin: KafkaAdmin, topic: string, flags: RangeFlags): Promise<PartitionRange[]> {
  const watermarks = await admin.fetchTopicOffsets(topic);
  const from = flags.fromOffset ? parsePartitionOffsets('--from-offset', flags.fromOffset) : undefined;
  const to = flags.toOffset ? parsePartitionOffsets('--to-offset', flags.toOffset) : undefined;
  const fromTime = flags.fromTime ? await offsetsAt(admin, topic, parseTimeFlag('--from-time', flags.fromTime)) : undefined;
  const toTime = flags.toTime ? await offsetsAt(admin, topic, parseTimeFlag('--to-time', flags.toTime)) : undefined;
  return watermarks
    .map((w) => {
      const low = BigInt(w.low);
      const high = BigInt(w.high);
      const p = w.partition;
      const start = max(low, from?.byPartition.get(p) ?? from?.all ?? low, fromTime?.get(p) ?? low);
      const end = min(high, to?.byPartition.get(p) ?? to?.all ?? high, toTime?.get(p) ?? high);
      return { partition: p, from: start, to: end < start ? start : end };
    })
    .sort((a, b) => a.partition - b.partition);
}

async function offsetsAt(admin: KafkaAdmin, topic: string, ms: number): Promise<Map<number, bigint>> {
  const rows = await admin.fetchTopicOffsetsByTimestamp(topic, ms);
  // -1 means "no record at or after that time": the end of the partition.
  const high = new Map((await admin.fetchTopicOffsets(topic)).map((w) => [w.partition, BigInt(w.high)]));
  return new Map(rows.map((r) => [r.partition, r.offset === '-1' ? (high.get(r.partition) ?? 0n) : BigInt(r.offset)]));
}

const max = (...xs: bigint[]) => xs.reduce((a, b) => (a > b ? a : b));
const min = (...xs: bigint[]) => xs.reduce((a, b) => (a < b ? a : b));
