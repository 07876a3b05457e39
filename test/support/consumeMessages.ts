import type { ConsumedRecord, KafkaPort } from '../../streams/kafka/index.ts';
import { uniqueName } from './uniqueName.ts';

/**
 * Reads `count` messages from the beginning of `topic` with a fresh consumer
 * group, then leaves the group. Rejects after `timeoutMs` saying how many
 * arrived, so a lost message fails the test instead of hanging it.
 */
export async function consumeMessages(
  kafka: KafkaPort,
  topic: string,
  count: number,
  { timeoutMs = 60_000 }: { timeoutMs?: number } = {},
): Promise<ConsumedRecord[]> {
  const consumer = kafka.consumer({ groupId: uniqueName('it-consumer') });
  const received: ConsumedRecord[] = [];
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`consumed ${received.length} of ${count} messages from ${topic} in ${timeoutMs} ms`)),
        timeoutMs,
      );
      consumer
        .run({
          eachBatch: async ({ batch, resolveOffset }) => {
            for (const message of batch.messages) {
              resolveOffset(message.offset);
              received.push(message);
            }
            if (received.length >= count) {
              clearTimeout(timer);
              resolve();
            }
          },
        })
        .catch((e: unknown) => {
          clearTimeout(timer);
          reject(e instanceof Error ? e : new Error(String(e)));
        });
    });
    return received;
  } finally {
    await consumer.disconnect();
  }
}
