import { Partitioners, type Kafka, type Message, type Producer } from 'kafkajs';
import type { OutRecord, Publisher } from './pipelineTypes.ts';

/**
 * The runtime's producer: idempotent (no duplicates from the producer's own
 * retries), acks=all, one request in flight (what kafkajs requires for
 * idempotence), Java-compatible murmur2 partitioning so a key lands where a
 * Java producer would put it.
 */
export function createRuntimeProducer(kafka: Kafka): Producer {
  return kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner });
}

/** A Publisher over a kafkajs producer: one `sendBatch` per call, acks=all. */
export function createKafkaPublisher(producer: Pick<Producer, 'sendBatch'>): Publisher {
  return {
    async publish(records) {
      if (records.length === 0) return;
      const byTopic = new Map<string, Message[]>();
      for (const r of records) {
        let messages = byTopic.get(r.topic);
        if (messages === undefined) byTopic.set(r.topic, (messages = []));
        messages.push(toMessage(r));
      }
      await producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) });
    },
  };
}

function toMessage(r: OutRecord): Message {
  return {
    key: r.key,
    value: r.value,
    ...(r.headers === undefined ? {} : { headers: r.headers }),
    ...(r.timestamp === undefined ? {} : { timestamp: r.timestamp }),
  };
}
