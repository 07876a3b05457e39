import { describe, expect, it } from 'vitest';
import { parseEdgestreamConfig } from '../schemas/config/edgestreamConfig.ts';
import type { StackEndpoints } from '../stack/endpoints.ts';
import { kafkaClientChoice } from './kafkaClientChoice.ts';

const local: StackEndpoints = { source: 'local', kafkaBrokers: ['127.0.0.1:9092'], schemaRegistryUrl: 'http://127.0.0.1:8081', cassandraContactPoints: ['127.0.0.1:9042'], cassandraLocalDc: 'dc1' };
const configured = (kafkaClient: 'kafkajs' | 'platformatic'): StackEndpoints => ({ ...local, source: 'config', kafkaClient });
const cluster = (kafka: Record<string, unknown>) => ({
  edgeTypes: [{ name: 'a' }],
  cluster: {
    kafka: { brokers: ['k:9093'], ...kafka },
    schemaRegistry: { url: 'http://r:8081' },
    cassandra: { contactPoints: ['c:9042'], localDataCenter: 'dc1' },
  },
});

describe('choosing the Kafka client', () => {
  it('is kafkajs unless the config or the environment names another', () => {
    expect(kafkaClientChoice(local, {})).toBe('kafkajs');
    expect(kafkaClientChoice(local, { EDGESTREAM_KAFKA_CLIENT: '' })).toBe('kafkajs');
    expect(kafkaClientChoice(local, { EDGESTREAM_KAFKA_CLIENT: 'platformatic' })).toBe('platformatic');
    expect(kafkaClientChoice(configured('platformatic'), {})).toBe('platformatic');
    expect(kafkaClientChoice(configured('kafkajs'), {})).toBe('kafkajs');
  });

  it('refuses an unknown name, naming the variable, and the variable beside a cluster section', () => {
    expect(() => kafkaClientChoice(local, { EDGESTREAM_KAFKA_CLIENT: 'rdkafka' })).toThrow('EDGESTREAM_KAFKA_CLIENT: expected "kafkajs" or "platformatic", got "rdkafka"');
    expect(() => kafkaClientChoice(configured('kafkajs'), { EDGESTREAM_KAFKA_CLIENT: 'platformatic' })).toThrow(/config cluster and the environment's EDGESTREAM_KAFKA_CLIENT are both set/);
  });

  it('reads cluster.kafka.client from the config strictly: kafkajs by default, an unknown client an error naming the field', () => {
    expect(parseEdgestreamConfig(cluster({})).cluster?.kafka.client).toBe('kafkajs');
    expect(parseEdgestreamConfig(cluster({ client: 'platformatic' })).cluster?.kafka.client).toBe('platformatic');
    expect(() => parseEdgestreamConfig(cluster({ client: 'rdkafka' }))).toThrow(/cluster\.kafka\.client/);
  });
});
