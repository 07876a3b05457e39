import { Producer, type BaseOptions, type MessageToProduce } from '@platformatic/kafka';
import type { KafkaProducer, PartitionAck, ProducedRecord, ProducerOptions, RecordHeaders } from '../KafkaPort.ts';
import { partitionForKey } from './partitionForKey.ts';
import { withRetriable } from './platformaticErrors.ts';

/** Retries of a failed produce request before send rejects (the kafkajs adapter's default too). */
const PRODUCE_RETRIES = 5;

/**
 * The port's producer on @platformatic/kafka: idempotent (the client then forces acks=all and
 * one request in flight per connection). Every record's partition is chosen here, before the
 * send, from the topic's partition count: the key's murmur2 partition as the Java client
 * computes it, or round robin for a record without key.
 */
export function platformaticProducer(base: BaseOptions, options: ProducerOptions = {}): KafkaProducer {
  const producer = new Producer({ ...base, idempotent: true, retries: PRODUCE_RETRIES });
  const roundRobin = new Map<string, number>();
  const send = async (topicMessages: readonly { readonly topic: string; readonly messages: readonly ProducedRecord[] }[]): Promise<PartitionAck[]> => {
    const topics = [...new Set(topicMessages.map((t) => t.topic))];
    const messages: MessageToProduce[] = [];
    try {
      const metadata = await producer.metadata({ topics });
      for (const { topic, messages: records } of topicMessages) {
        const count = metadata.topics.get(topic)?.partitionsCount ?? 0;
        for (const record of records) {
          const partition = record.partition ?? choosePartition(record, topic, count, roundRobin);
          options.onPartitioned?.(record, partition);
          messages.push(toMessage(topic, partition, record));
        }
      }
      if (messages.length === 0) return [];
      const { offsets = [] } = await producer.send({ messages, acks: -1 });
      return offsets.map((o) => ({ topicName: o.topic, partition: o.partition, baseOffset: o.offset.toString() }));
    } catch (e) {
      throw withRetriable(e);
    }
  };
  return {
    connect: async () => void (await producer.listApis().catch((e: unknown) => Promise.reject(withRetriable(e)))),
    disconnect: () => producer.close(),
    send: ({ topic, messages }) => send([{ topic, messages }]),
    sendBatch: ({ topicMessages }) => send(topicMessages),
  };
}

function choosePartition(record: ProducedRecord, topic: string, count: number, roundRobin: Map<string, number>): number {
  if (count === 0) throw new Error(`topic ${topic} has no partitions in the cluster's metadata`);
  if (record.key !== undefined && record.key !== null) return partitionForKey(record.key, count);
  const next = roundRobin.get(topic) ?? 0;
  roundRobin.set(topic, next + 1);
  return next % count;
}

const toBuffer = (v: Buffer | string): Buffer => (typeof v === 'string' ? Buffer.from(v) : v);

function toMessage(topic: string, partition: number, record: ProducedRecord): MessageToProduce {
  return {
    topic,
    partition,
    // The client writes an absent key or value as null (a tombstone's value).
    ...(record.key === undefined || record.key === null ? {} : { key: toBuffer(record.key) }),
    ...(record.value === null ? {} : { value: toBuffer(record.value) }),
    ...(record.timestamp === undefined ? {} : { timestamp: BigInt(record.timestamp) }),
    ...(record.headers === undefined ? {} : { headers: toHeaders(record.headers) }),
  };
}

/** A Map keyed by distinct Buffers, so a header name may repeat (a list value), as Kafka allows. */
function toHeaders(headers: RecordHeaders): Map<Buffer, Buffer> {
  const map = new Map<Buffer, Buffer>();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) map.set(Buffer.from(name), toBuffer(v));
  }
  return map;
}
