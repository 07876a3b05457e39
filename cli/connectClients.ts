import type { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import type { Logger } from 'pino';
import type { KafkaPort } from '../streams/kafka/index.ts';
import type { StackEndpoints } from '../stack/endpoints.ts';
import { connectKafka } from './connectKafka.ts';
import { openRegistry } from './openRegistry.ts';

/**
 * The Kafka and registry clients for one set of endpoints, with their TLS and credentials (the
 * store is opened per command): the Kafka adapter the config or the environment names
 * (connectKafka). CLI commands take them from their CommandContext, which opens the registry
 * client only when a command uses it. With `logger`, the Kafka client logs through it.
 */
export async function connectClients(endpoints: StackEndpoints, clientId: string, logger?: Logger): Promise<{ kafka: KafkaPort; registry: SchemaRegistry }> {
  return { kafka: await connectKafka(endpoints, clientId, logger), registry: openRegistry(endpoints) };
}
