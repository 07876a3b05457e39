import type { KafkaPort } from '../kafka/index.ts';
import type { Logger } from 'pino';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { knownSchemas, type WidePartitionDetected } from '../../schemas/index.ts';
import { createKafkaPublisher, createRuntimeProducer } from '../runtime/consumer/kafkaPublisher.ts';
import { subjectFor, type AvroSerde } from '../serde/index.ts';
import { topicName } from '../topics/index.ts';

export interface WidePartitionPublisher {
  /**
   * Publishes in the background: a reader that crossed the threshold need not
   * wait. Failures are logged; the promise says whether it was published.
   */
  publish(event: WidePartitionDetected): Promise<boolean>;
  /** Waits for what is in flight, then disconnects. */
  close(): Promise<void>;
  readonly published: number;
}

/**
 * The read side's way into the chain: wide-partition events (Avro) on
 * `<prefix>wide-partitions`, keyed `namespace ␀ partition id` so the events of
 * one partition stay ordered. The read counters' cool-down keeps this rare.
 */
export function createWidePartitionPublisher(opts: { kafka: KafkaPort; serde: AvroSerde; config: EdgestreamConfig; logger: Logger }): WidePartitionPublisher {
  const topic = topicName(opts.config.topics.prefix, 'wide-partitions');
  const producer = createRuntimeProducer(opts.kafka);
  const publisher = createKafkaPublisher(producer);
  // Connected on the first event: most readers never publish one.
  let connected: Promise<void> | undefined;
  const inFlight = new Set<Promise<void>>();
  let published = 0;
  const send = async (event: WidePartitionDetected) => {
    await (connected ??= producer.connect());
    const value = await opts.serde.encode(subjectFor(topic, knownSchemas.WidePartitionDetected), event);
    await publisher.publish([{ topic, key: `${event.namespace}\u0000${event.partition_id}`, value }]);
    published++;
    opts.logger.info({ namespace: event.namespace, partition_id: event.partition_id, bytes_read: Number(event.bytes_read), rows_read: Number(event.rows_read), rows_returned: Number(event.rows_returned) }, 'wide partition detected; published');
  };
  return {
    publish(event) {
      const p = send(event).then(
        () => true,
        (err: unknown) => {
          opts.logger.error({ err, namespace: event.namespace, partition_id: event.partition_id }, 'publishing a wide-partition event failed');
          return false;
        },
      );
      const tracked = p.then(() => undefined);
      inFlight.add(tracked);
      void tracked.finally(() => inFlight.delete(tracked));
      return p;
    },
    async close() {
      await Promise.all(inFlight);
      if (connected === undefined) return;
      await connected.catch(() => {});
      await producer.disconnect();
    },
    get published() {
      return published;
    },
  };
}
