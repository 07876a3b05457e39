import type { PartitionAck } from '../kafka/index.ts';

/** Where Kafka appended one record: what a consistency token names. */
export interface RecordCoordinates {
  readonly topic: string;
  readonly partition: number;
  /** The record's offset, a decimal string (Kafka offsets are int64). */
  readonly offset: string;
}

/**
 * The offset of every message of one acknowledged send. Kafka answers with a
 * base offset per partition; a partition's messages were appended in the
 * order they were given (kafkajs keeps it when it groups them), so the i-th
 * message of a partition sits at base + i. `partitions[j]` is the partition
 * message j was sent to. Throws when the answer lacks a partition sent to.
 */
export function recordCoordinates(topic: string, partitions: readonly number[], metadata: readonly PartitionAck[]): RecordCoordinates[] {
  const base = new Map<number, bigint>();
  for (const m of metadata) {
    if (m.topicName === topic && m.baseOffset !== undefined) base.set(m.partition, BigInt(m.baseOffset));
  }
  const seen = new Map<number, bigint>();
  return partitions.map((partition) => {
    const first = base.get(partition);
    if (first === undefined) throw new Error(`Kafka acknowledged no base offset for ${topic}/${partition}`);
    const index = seen.get(partition) ?? 0n;
    seen.set(partition, index + 1n);
    return { topic, partition, offset: String(first + index) };
  });
}
