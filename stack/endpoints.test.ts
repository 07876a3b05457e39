import { describe, expect, it } from 'vitest';
import { endpointsFromEnv, endpointsToEnv } from './endpoints.ts';

const full = {
  KAFKA_BROKERS: '10.0.0.1:9092, 10.0.0.2:9092',
  SCHEMA_REGISTRY_URL: 'http://registry:8081',
  CASSANDRA_CONTACT_POINTS: 'cass:9042',
};

describe('endpointsFromEnv', () => {
  it('returns undefined when no cluster variable is set', () => {
    expect(endpointsFromEnv({ PATH: '/bin' })).toBeUndefined();
  });

  it('parses a complete external cluster and defaults the local DC', () => {
    const e = endpointsFromEnv(full);
    expect(e).toEqual({
      source: 'env',
      kafkaBrokers: ['10.0.0.1:9092', '10.0.0.2:9092'],
      schemaRegistryUrl: 'http://registry:8081',
      cassandraContactPoints: ['cass:9042'],
      cassandraLocalDc: 'datacenter1',
    });
  });

  it('names the missing variable of a half-configured cluster', () => {
    expect(() => endpointsFromEnv({ KAFKA_BROKERS: 'k:9092' })).toThrow(/SCHEMA_REGISTRY_URL/);
  });

  it('names the malformed variable', () => {
    expect(() => endpointsFromEnv({ ...full, CASSANDRA_CONTACT_POINTS: 'no-port' })).toThrow(/CASSANDRA_CONTACT_POINTS: expected host:port/);
  });

  it('round-trips through its env form', () => {
    const e = endpointsFromEnv(full)!;
    expect(endpointsFromEnv(endpointsToEnv(e))).toEqual(e);
  });
});
