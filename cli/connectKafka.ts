import type { Logger } from 'pino';
import type { KafkaConnection, KafkaPort } from '../streams/kafka/index.ts';
import type { KafkaClientName } from '../schemas/config/clusterConfig.ts';
import type { StackEndpoints } from '../stack/endpoints.ts';
import { kafkaClientChoice } from './kafkaClientChoice.ts';

type CreatePort = (connection: KafkaConnection, logger?: Logger) => KafkaPort;

/** The Kafka adapters (streams/kafka/), by the name `cluster.kafka.client` / EDGESTREAM_KAFKA_CLIENT give; each loaded only when chosen (a client is hundreds of modules). */
const KAFKA_ADAPTERS: Record<KafkaClientName, () => Promise<CreatePort>> = {
  kafkajs: async () => (await import('../streams/kafka/kafkajs/index.ts')).createKafkajsPort,
  platformatic: async () => (await import('../streams/kafka/platformatic/index.ts')).createPlatformaticPort,
};

/**
 * The Kafka port for one set of endpoints, with their TLS and credentials, through the adapter the
 * config or the environment names (kafkaClientChoice). With `logger`, the client logs through it.
 */
export async function connectKafka(endpoints: StackEndpoints, clientId: string, logger?: Logger): Promise<KafkaPort> {
  const createPort = await KAFKA_ADAPTERS[kafkaClientChoice(endpoints)]();
  return createPort({ clientId, brokers: endpoints.kafkaBrokers, ...endpoints.security?.kafka }, logger);
}
