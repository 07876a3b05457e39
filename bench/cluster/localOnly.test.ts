import { describe, expect, it } from 'vitest';
import { localOnlyEnv } from './localOnly.ts';

describe('localOnlyEnv', () => {
  it('forces the local JVM stack and keeps the rest of the environment', () => {
    expect(localOnlyEnv({ PATH: '/bin' })).toEqual({ PATH: '/bin', EDGESTREAM_STACK: 'local' });
    expect(localOnlyEnv({ EDGESTREAM_STACK: 'local', KAFKA_BROKERS: '' })['EDGESTREAM_STACK']).toBe('local');
  });

  it('refuses an environment that names another stack, naming the variables', () => {
    expect(() => localOnlyEnv({ KAFKA_BROKERS: 'h:9092', CASSANDRA_CONTACT_POINTS: 'h:9042' })).toThrow(/unset KAFKA_BROKERS, CASSANDRA_CONTACT_POINTS/);
    expect(() => localOnlyEnv({ EDGESTREAM_STACK: 'docker' })).toThrow(/EDGESTREAM_STACK is "docker"/);
  });
});
