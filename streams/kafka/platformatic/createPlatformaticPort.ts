import type { Logger } from 'pino';
import type { KafkaConnection, KafkaPort } from '../KafkaPort.ts';
import { partitionForKey } from './partitionForKey.ts';
import { platformaticAdmin } from './platformaticAdmin.ts';
import { platformaticBaseOptions } from './platformaticConnection.ts';
import { platformaticConsumer } from './platformaticConsumer.ts';
import { platformaticProducer } from './platformaticProducer.ts';

/**
 * The second Kafka adapter: @platformatic/kafka (pure TypeScript). Chosen with
 * `cluster.kafka.client: "platformatic"` or EDGESTREAM_KAFKA_CLIENT=platformatic. The client
 * writes no logs of its own (it has debug channels); what it reports to the adapter (a failed
 * heartbeat, a re-join, a failure the consumer stops on) goes to `logger`, the retried
 * start-up and rebalance answers at debug.
 */
export function createPlatformaticPort(connection: KafkaConnection, logger?: Logger): KafkaPort {
  const base = platformaticBaseOptions(connection);
  return {
    producer: (options) => platformaticProducer(base, options),
    consumer: (options) => platformaticConsumer(base, options, logger),
    admin: (options = {}) => platformaticAdmin(base, options.retries),
    partitionForKey,
  };
}
