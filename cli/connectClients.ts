import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import type { Logger } from 'pino';
import type { KafkaConnection, KafkaPort } from '../streams/kafka/index.ts';
import { createKafkajsPort } from '../streams/kafka/kafkajs/index.ts';
import { createPlatformaticPort } from '../streams/kafka/platformatic/index.ts';
import type { StackEndpoints } from '../stack/endpoints.ts';
import { kafkaClientChoice } from './kafkaClientChoice.ts';

/** The Kafka adapters (streams/kafka/), by the name `cluster.kafka.client` / EDGESTREAM_KAFKA_CLIENT give. */
const KAFKA_ADAPTERS = { kafkajs: createKafkajsPort, platformatic: createPlatformaticPort } as const satisfies Record<string, (c: KafkaConnection, l?: Logger) => KafkaPort>;

/**
 * The Kafka and registry clients for one set of endpoints, with their TLS and credentials (the
 * store is opened per command). The Kafka adapter is the one the config or the environment
 * names (kafkaClientChoice). With `logger`, the Kafka client logs through it.
 */
export function connectClients(endpoints: StackEndpoints, clientId: string, logger?: Logger): { kafka: KafkaPort; registry: SchemaRegistry } {
  const createPort = KAFKA_ADAPTERS[kafkaClientChoice(endpoints)];
  return {
    kafka: createPort({ clientId, brokers: endpoints.kafkaBrokers, ...endpoints.security?.kafka }, logger),
    registry: new SchemaRegistry({ host: endpoints.schemaRegistryUrl, ...endpoints.security?.registry }),
  };
}
