import type { KafkaPort, KafkaProducer, ProducedRecord } from '../../kafka/index.ts';
import type { OutRecord, Publisher } from '../stages/pipelineTypes.ts';

/**
 * The runtime's producer: the port's (idempotent, acks=all, Java-compatible murmur2
 * partitioning so a key lands where a Java producer would put it).
 */
export function createRuntimeProducer(kafka: KafkaPort): KafkaProducer {
  return kafka.producer();
}

/** A Publisher over a Kafka producer: one `sendBatch` per call, acks=all. */
export function createKafkaPublisher(producer: Pick<KafkaProducer, 'sendBatch'>): Publisher {
  return {
    async publish(records) {
      if (records.length === 0) return;
      const byTopic = new Map<string, ProducedRecord[]>();
      for (const r of records) {
        let messages = byTopic.get(r.topic);
        if (messages === undefined) byTopic.set(r.topic, (messages = []));
        messages.push(toMessage(r));
      }
      await producer.sendBatch({ topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) });
    },
  };
}

function toMessage(r: OutRecord): ProducedRecord {
  return {
    key: r.key,
    value: r.value,
    ...(r.headers === undefined ? {} : { headers: r.headers }),
    ...(r.timestamp === undefined ? {} : { timestamp: r.timestamp }),
  };
}
