import { KAFKA_CLIENTS, type KafkaClientName } from '../schemas/config/clusterConfig.ts';
import type { StackEndpoints } from '../stack/endpoints.ts';

/**
 * The Kafka client to connect with: the config's `cluster.kafka.client` for a configured
 * cluster, else EDGESTREAM_KAFKA_CLIENT, else kafkajs. Like KAFKA_BROKERS, the variable is
 * for when there is no cluster section: set beside one, it is an error naming both; an
 * unknown name is an error naming the variable.
 */
export function kafkaClientChoice(endpoints: StackEndpoints, env: NodeJS.ProcessEnv = process.env): KafkaClientName {
  const named = env['EDGESTREAM_KAFKA_CLIENT'];
  const set = named !== undefined && named !== '';
  if (endpoints.source === 'config') {
    if (set) throw new Error('config cluster and the environment\'s EDGESTREAM_KAFKA_CLIENT are both set: choose the client once (cluster.kafka.client in the config, or unset the variable)');
    return endpoints.kafkaClient ?? 'kafkajs';
  }
  if (!set) return 'kafkajs';
  if ((KAFKA_CLIENTS as readonly string[]).includes(named)) return named as KafkaClientName;
  throw new Error(`EDGESTREAM_KAFKA_CLIENT: expected ${KAFKA_CLIENTS.map((c) => `"${c}"`).join(' or ')}, got "${named}"`);
}
