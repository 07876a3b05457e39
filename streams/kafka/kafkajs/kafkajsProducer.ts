import kafkajs from 'kafkajs';
import type { ICustomPartitioner, Kafka, Message } from 'kafkajs';
import type { KafkaProducer, ProducedRecord, ProducerOptions } from '../KafkaPort.ts';

/**
 * The port's producer on kafkajs: idempotent (no duplicates from its own retries), acks=all,
 * one request in flight (what kafkajs requires for idempotence), and kafkajs' DefaultPartitioner,
 * the Java client's murmur2, so a key lands where a Java producer would put it.
 */
export function kafkajsProducer(kafka: Kafka, options: ProducerOptions = {}): KafkaProducer {
  const { onPartitioned } = options;
  const createPartitioner: ICustomPartitioner =
    onPartitioned === undefined
      ? kafkajs.Partitioners.DefaultPartitioner
      : () => {
          const choose = kafkajs.Partitioners.DefaultPartitioner();
          return (args) => {
            const partition = choose(args);
            onPartitioned(args.message, partition);
            return partition;
          };
        };
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner });
  return {
    connect: () => producer.connect(),
    disconnect: () => producer.disconnect(),
    send: ({ topic, messages }) => producer.send({ topic, acks: -1, messages: toMessages(messages) }),
    sendBatch: ({ topicMessages }) => producer.sendBatch({ acks: -1, topicMessages: topicMessages.map(({ topic, messages }) => ({ topic, messages: toMessages(messages) })) }),
  };
}

/** The same record objects (the partitioner reports them by identity); kafkajs' types are not readonly. */
function toMessages(records: readonly ProducedRecord[]): Message[] {
  return records as Message[];
}
