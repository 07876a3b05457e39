import type { SchemaRegistry } from '@kafkajs/confluent-schema-registry';

/**
 * The part of the kafkajs schema-registry client the serde needs: schema by
 * id (the client caches these and coalesces concurrent misses) and the latest
 * id of a subject. A narrow structural type, so unit tests can stub it.
 */
export type SchemaRegistryReader = Pick<SchemaRegistry, 'getSchema' | 'getLatestSchemaId'>;
