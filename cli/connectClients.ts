import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { Kafka, logLevel } from 'kafkajs';
import type { StackEndpoints } from '../stack/endpoints.ts';

/** The Kafka and registry clients for one set of endpoints, with their TLS and credentials (the store is opened per command). */
export function connectClients(endpoints: StackEndpoints, clientId: string): { kafka: Kafka; registry: SchemaRegistry } {
  return {
    kafka: new Kafka({ clientId, brokers: [...endpoints.kafkaBrokers], logLevel: logLevel.WARN, ...endpoints.security?.kafka }),
    registry: new SchemaRegistry({ host: endpoints.schemaRegistryUrl, ...endpoints.security?.registry }),
  };
}
