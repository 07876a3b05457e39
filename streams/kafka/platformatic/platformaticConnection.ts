import type { BaseOptions, SASLMechanismValue } from '@platformatic/kafka';
import type { KafkaConnection, KafkaSasl } from '../KafkaPort.ts';

const MECHANISMS: Record<KafkaSasl['mechanism'], SASLMechanismValue> = {
  plain: 'PLAIN',
  'scram-sha-256': 'SCRAM-SHA-256',
  'scram-sha-512': 'SCRAM-SHA-512',
};

/**
 * The options every @platformatic/kafka client of one connection shares: brokers, TLS (with
 * SNI, as kafkajs sends it) and SASL. Topics are never created by a metadata request.
 */
export function platformaticBaseOptions(connection: KafkaConnection): BaseOptions {
  const { ssl, sasl } = connection;
  return {
    clientId: connection.clientId,
    bootstrapBrokers: [...connection.brokers],
    autocreateTopics: false,
    ...(ssl === undefined || ssl === false ? {} : { tls: ssl === true ? {} : ssl, tlsServerName: true }),
    ...(sasl === undefined ? {} : { sasl: { mechanism: MECHANISMS[sasl.mechanism], username: sasl.username, password: sasl.password } }),
  };
}
