import { describe, expect, it } from 'vitest';
import type { StackEndpoints } from './endpoints.ts';
import { resolveStack } from './resolveStack.ts';

const configured: StackEndpoints = { source: 'config', kafkaBrokers: ['k:9093'], schemaRegistryUrl: 'https://r:8081', cassandraContactPoints: ['c:9042'], cassandraLocalDc: 'dc1' };
const envCluster = { KAFKA_BROKERS: 'e:9092', SCHEMA_REGISTRY_URL: 'http://e:8081', CASSANDRA_CONTACT_POINTS: 'e:9042' };

describe('resolveStack with a configured cluster', () => {
  it('uses it as is, without looking for Docker or a local stack', async () => {
    const logs: string[] = [];
    const stack = await resolveStack({ log: (l) => logs.push(l), env: { EDGESTREAM_KEEP_STACK: '1' }, configured });
    expect(stack.endpoints).toBe(configured);
    expect(logs).toEqual(['using the cluster from the config (Kafka k:9093)']);
  });

  it('refuses the cluster section beside the env variables, naming both', async () => {
    await expect(resolveStack({ log: () => {}, env: envCluster, configured })).rejects.toThrow(
      "config cluster and the environment's KAFKA_BROKERS, SCHEMA_REGISTRY_URL, CASSANDRA_CONTACT_POINTS are both set",
    );
    await expect(resolveStack({ log: () => {}, env: { EDGESTREAM_STACK: 'local' }, configured })).rejects.toThrow(/config cluster and the environment's EDGESTREAM_STACK/);
  });
});
