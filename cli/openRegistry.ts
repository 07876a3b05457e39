import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import type { StackEndpoints } from '../stack/endpoints.ts';

/** The schema registry client for one set of endpoints, with their TLS and credentials. */
export function openRegistry(endpoints: StackEndpoints): SchemaRegistry {
  return new SchemaRegistry({ host: endpoints.schemaRegistryUrl, ...endpoints.security?.registry });
}
