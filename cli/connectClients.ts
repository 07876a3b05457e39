import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import type { Logger } from 'pino';
import type { KafkaPort } from '../streams/kafka/index.ts';
import { createKafkajsPort } from '../streams/kafka/kafkajs/index.ts';
import type { StackEndpoints } from '../stack/endpoints.ts';

/**
 * The Kafka and registry clients for one set of endpoints, with their TLS and credentials (the
 * store is opened per command). With `logger`, the Kafka client logs through it.
 */
export function connectClients(endpoints: StackEndpoints, clientId: string, logger?: Logger): { kafka: KafkaPort; registry: SchemaRegistry } {
  return {
    kafka: createKafkajsPort({ clientId, brokers: endpoints.kafkaBrokers, ...endpoints.security?.kafka }, logger),
    registry: new SchemaRegistry({ host: endpoints.schemaRegistryUrl, ...endpoints.security?.registry }),
  };
}
