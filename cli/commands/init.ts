import type { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import type { Kafka } from 'kafkajs';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import type { TwoLevelMapStore } from '../../sinks/store/TwoLevelMapStore.ts';
import { registerSchemas } from '../../streams/serde/index.ts';
import { ensureTopics, topicSchemas } from '../../streams/topics/index.ts';

/**
 * `edgestream init`: creates the topics, registers the schemas (BACKWARD) and creates the
 * keyspace and namespaces the config declares. Idempotent: running it again changes nothing.
 */
export async function initCommand(deps: { kafka: Kafka; registry: SchemaRegistry; store: TwoLevelMapStore; config: EdgestreamConfig }): Promise<void> {
  const admin = deps.kafka.admin();
  await admin.connect();
  try {
    const topics = await ensureTopics(admin, deps.config);
    console.log(`topics: created ${topics.created.length ? topics.created.join(', ') : 'none'}; existing ${topics.existing.length ? topics.existing.join(', ') : 'none'}`);
  } finally {
    await admin.disconnect();
  }
  const subjects = await registerSchemas(deps.registry, topicSchemas(deps.config));
  for (const s of subjects) console.log(`schema: ${s.subject} -> id ${s.schemaId} (BACKWARD)`);
  await deps.store.init();
  console.log(`cassandra: keyspace ${deps.config.cassandra.keyspace}, namespaces ${deps.store.namespaces.join(', ')}`);
}
