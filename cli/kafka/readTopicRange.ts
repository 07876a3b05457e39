import { randomUUID } from 'node:crypto';
import type { ConsumedRecord, KafkaPort } from '../../streams/kafka/index.ts';
import type { PartitionRange } from './resolveOffsetRange.ts';

/**
 * Reads every record of `ranges` from `topic` once, in offset order per partition,
 * then stops. Uses a throwaway consumer group that never commits, so it does not
 * disturb any processor's offsets (like kafka-console-consumer without --group).
 */
export async function readTopicRange(
  kafka: KafkaPort,
  topic: string,
  ranges: readonly PartitionRange[],
  onRecord: (partition: number, message: ConsumedRecord) => Promise<void>,
): Promise<number> {
  const pending = new Map(ranges.filter((r) => r.to > r.from).map((r) => [r.partition, r]));
  if (pending.size === 0) return 0;
  const consumer = kafka.consumer({ groupId: `edgestream-cli-${randomUUID()}` });
  let count = 0;
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    const done = new Promise<void>((resolve, reject) => {
      consumer
        .run({
          eachBatch: async ({ batch, resolveOffset, heartbeat }) => {
            const range = pending.get(batch.partition);
            if (!range) return;
            for (const message of batch.messages) {
              const offset = BigInt(message.offset);
              if (offset >= range.to) break;
              if (offset >= range.from) {
                await onRecord(batch.partition, message);
                count++;
              }
              resolveOffset(message.offset);
            }
            await heartbeat();
            const last = batch.messages.at(-1);
            if (!last || BigInt(last.offset) + 1n >= range.to) {
              pending.delete(batch.partition);
              if (pending.size === 0) resolve();
            }
          },
        })
        .catch(reject);
    });
    consumer.onGroupJoin(() => {
      for (const r of pending.values()) consumer.seek({ topic, partition: r.partition, offset: r.from.toString() });
    });
    await done;
  } finally {
    await consumer.disconnect();
  }
  return count;
}
