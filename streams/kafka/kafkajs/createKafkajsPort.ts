import kafkajs from 'kafkajs';
import type { Kafka, PartitionMetadata, SASLOptions } from 'kafkajs';
import type { Logger } from 'pino';
import type { KafkaConnection, KafkaPort } from '../KafkaPort.ts';
import { kafkajsAdminPort } from './kafkajsAdmin.ts';
import { kafkajsConsumer } from './kafkajsConsumer.ts';
import { pinoLogCreator } from './kafkajsLogCreator.ts';
import { kafkajsProducer } from './kafkajsProducer.ts';

/**
 * The default Kafka adapter: kafkajs. With a logger, kafkajs logs through it (warnings and
 * errors, the start-up noise demoted; see kafkajsLogCreator); without, through kafkajs' own
 * console logger at WARN, as before.
 */
export function createKafkajsPort(connection: KafkaConnection, logger?: Logger): KafkaPort {
  const { ssl, sasl } = connection;
  return kafkajsPort(
    new kafkajs.Kafka({
      clientId: connection.clientId,
      brokers: [...connection.brokers],
      logLevel: kafkajs.logLevel.WARN,
      ...(logger === undefined ? {} : { logCreator: pinoLogCreator(logger) }),
      ...(ssl === undefined ? {} : { ssl }),
      // kafkajs types SASL options per mechanism; KafkaSasl names the mechanism as a union of the same three.
      ...(sasl === undefined ? {} : { sasl: { ...sasl } as SASLOptions }),
    }),
  );
}

const choosePartition = kafkajs.Partitioners.DefaultPartitioner();
/** The partition list the partitioner is given, per count (a keyed record's partition depends on the count only). */
const partitionLists = new Map<number, PartitionMetadata[]>();

/** kafkajs' DefaultPartitioner (the Java client's murmur2) over `partitionCount` partitions. */
function partitionForKey(key: string, partitionCount: number): number {
  let partitionMetadata = partitionLists.get(partitionCount);
  if (partitionMetadata === undefined) {
    partitionMetadata = Array.from({ length: partitionCount }, (_, partitionId) => ({ partitionId, leader: 0, partitionErrorCode: 0, replicas: [], isr: [] }));
    partitionLists.set(partitionCount, partitionMetadata);
  }
  return choosePartition({ topic: '', partitionMetadata, message: { key, value: null } });
}

/** The port over a kafkajs client made elsewhere (tests and benchmarks that configure their own). */
export function kafkajsPort(kafka: Kafka): KafkaPort {
  return {
    producer: (options) => kafkajsProducer(kafka, options),
    consumer: (options) => kafkajsConsumer(kafka, options),
    admin: (options = {}) => kafkajsAdminPort(kafka.admin(options.retries === undefined ? undefined : { retry: { retries: options.retries } })),
    partitionForKey,
  };
}
