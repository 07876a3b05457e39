import type { Kafka } from 'kafkajs';
import type { ConsumerOptions, KafkaConsumer } from '../KafkaPort.ts';

/** The port's group consumer on kafkajs: manual offsets (autoCommit and eachBatchAutoResolve off), no topic auto-creation. */
export function kafkajsConsumer(kafka: Kafka, options: ConsumerOptions): KafkaConsumer {
  const consumer = kafka.consumer({
    groupId: options.groupId,
    allowAutoTopicCreation: false,
    ...(options.sessionTimeoutMs === undefined ? {} : { sessionTimeout: options.sessionTimeoutMs }),
    ...(options.maxWaitTimeMs === undefined ? {} : { maxWaitTimeInMs: options.maxWaitTimeMs }),
    ...(options.minBytes === undefined ? {} : { minBytes: options.minBytes }),
    ...(options.maxBytesPerPartition === undefined ? {} : { maxBytesPerPartition: options.maxBytesPerPartition }),
  });
  const { events } = consumer;
  return {
    connect: () => consumer.connect(),
    disconnect: () => consumer.disconnect(),
    subscribe: ({ topics, fromBeginning }) => consumer.subscribe({ topics: [...topics], fromBeginning }),
    run: ({ partitionsConsumedConcurrently, eachBatch }) =>
      consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        ...(partitionsConsumedConcurrently === undefined ? {} : { partitionsConsumedConcurrently }),
        eachBatch,
      }),
    pause: (topics) => consumer.pause(topics.map((t) => ({ topic: t.topic, ...(t.partitions === undefined ? {} : { partitions: [...t.partitions] }) }))),
    seek: (args) => consumer.seek(args),
    onGroupJoin: (listener) => void consumer.on(events.GROUP_JOIN, ({ payload }) => listener(payload.memberAssignment)),
    onRebalancing: (listener) => void consumer.on(events.REBALANCING, () => listener()),
    onCrash: (listener) => void consumer.on(events.CRASH, ({ payload }) => listener({ error: payload.error, restart: payload.restart })),
  };
}
