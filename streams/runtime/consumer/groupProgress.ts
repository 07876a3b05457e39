import type { KafkaAdmin, KafkaPort } from '../../kafka/index.ts';

/** How far another consumer group got: its committed offsets (the next offset it will consume). */
export interface GroupProgress {
  readonly groupId: string;
  /** The group's committed offset on one partition, or undefined when it has committed none. */
  committedOffset(topic: string, partition: number): Promise<bigint | undefined>;
  close(): Promise<void>;
}

/** GroupProgress through the Kafka admin client (connected on first use). */
export function createGroupProgress(kafka: KafkaPort, groupId: string): GroupProgress {
  let admin: Promise<KafkaAdmin> | undefined;
  const connected = () => {
    admin ??= (async () => {
      const a = kafka.admin();
      await a.connect();
      return a;
    })().catch((e: unknown) => {
      admin = undefined;
      throw e;
    });
    return admin;
  };
  return {
    groupId,
    async committedOffset(topic, partition) {
      const [entry] = await (await connected()).fetchOffsets({ groupId, topics: [topic] });
      const offset = entry?.partitions.find((p) => p.partition === partition)?.offset;
      // kafkajs answers '-1' for a partition the group never committed.
      return offset === undefined || BigInt(offset) < 0n ? undefined : BigInt(offset);
    },
    async close() {
      const a = admin;
      admin = undefined;
      await (await a?.catch(() => undefined))?.disconnect();
    },
  };
}
