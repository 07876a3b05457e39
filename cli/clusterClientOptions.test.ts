import https from 'node:https';
import { describe, expect, it } from 'vitest';
import { parseEdgestreamConfig } from '../schemas/config/edgestreamConfig.ts';
import { clusterClientOptions, type SecretSources } from './clusterClientOptions.ts';

const files: Record<string, string> = {
  'ca.pem': 'CA-PEM',
  'client.pem': 'CERT-PEM',
  'client.key': 'KEY-PEM',
  '/run/secrets/kafka': 'kafka-secret\n',
  '/run/secrets/cassandra': 'cassandra-secret\n',
  '/run/secrets/token': 'the-token\n',
};
const sources: SecretSources = {
  env: { REGISTRY_PASSWORD: 'registry-secret' },
  readFile: (p) => {
    const f = files[p];
    if (f === undefined) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
    return f;
  },
};

const cluster = (over: Record<string, unknown> = {}) =>
  parseEdgestreamConfig({
    edgeTypes: [{ name: 'a' }],
    cluster: {
      kafka: {
        brokers: ['k1:9093', 'k2:9093'],
        tls: { caFile: 'ca.pem', certFile: 'client.pem', keyFile: 'client.key' },
        sasl: { mechanism: 'scram-sha-512', username: 'es', passwordFile: '/run/secrets/kafka' },
      },
      schemaRegistry: { url: 'https://registry:8081', tls: { caFile: 'ca.pem', rejectUnauthorized: false }, auth: { basic: { username: 'es', passwordEnv: 'REGISTRY_PASSWORD' } } },
      cassandra: { contactPoints: ['c1:9042', 'c2:9042'], localDataCenter: 'dc1', tls: { caFile: 'ca.pem' }, auth: { username: 'es', passwordFile: '/run/secrets/cassandra' } },
      ...over,
    },
  }).cluster!;

describe('clusterClientOptions', () => {
  it('maps the cluster section to endpoints and each client\'s TLS and credentials, secrets read and trimmed', () => {
    const e = clusterClientOptions(cluster(), sources);
    expect(e).toMatchObject({ source: 'config', kafkaBrokers: ['k1:9093', 'k2:9093'], schemaRegistryUrl: 'https://registry:8081', cassandraContactPoints: ['c1:9042', 'c2:9042'], cassandraLocalDc: 'dc1' });
    expect(e.security?.kafka).toEqual({
      ssl: { rejectUnauthorized: true, ca: 'CA-PEM', cert: 'CERT-PEM', key: 'KEY-PEM' },
      sasl: { mechanism: 'scram-sha-512', username: 'es', password: 'kafka-secret' },
    });
    expect(e.security?.registry.auth).toEqual({ username: 'es', password: 'registry-secret' });
    const agent = e.security?.registry.agent as https.Agent;
    expect(agent).toBeInstanceOf(https.Agent);
    expect(agent.options).toMatchObject({ ca: 'CA-PEM', rejectUnauthorized: false });
    expect(e.security?.cassandra).toEqual({ sslOptions: { rejectUnauthorized: true, ca: 'CA-PEM' }, credentials: { username: 'es', password: 'cassandra-secret' } });
  });

  it('sends a bearer token as an Authorization header on every registry request', async () => {
    const e = clusterClientOptions(cluster({ schemaRegistry: { url: 'http://registry:8081', auth: { bearer: { tokenFile: '/run/secrets/token' } } } }), sources);
    expect(e.security?.registry.auth).toBeUndefined();
    expect(e.security?.registry.agent).toBeUndefined();
    const [middleware] = e.security?.registry.middlewares ?? [];
    let headers: Record<string, string> = {};
    const request = { enhance: (r: { headers: Record<string, string> }) => ((headers = r.headers), request) };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a minimal stand-in for mappersmith's request
    await (middleware as any)({}).prepareRequest(async () => request);
    expect(headers).toEqual({ authorization: 'Bearer the-token' });
  });

  it('leaves plain connections plain', () => {
    const e = clusterClientOptions(cluster({ kafka: { brokers: ['k:9092'] }, schemaRegistry: { url: 'http://r:8081' }, cassandra: { contactPoints: ['c:9042'], localDataCenter: 'dc1' } }), sources);
    expect(e.security).toEqual({ kafka: {}, registry: {}, cassandra: {} });
  });

  it('names the field of a secret it cannot read, without the secret', () => {
    expect(() => clusterClientOptions(cluster(), { ...sources, env: {} })).toThrow('cluster.schemaRegistry.auth.basic.passwordEnv: the environment variable REGISTRY_PASSWORD is not set');
    expect(() => clusterClientOptions(cluster(), { ...sources, readFile: (p) => (p === '/run/secrets/kafka' ? sources.readFile('nope') : sources.readFile(p)) })).toThrow(
      'cluster.kafka.sasl.passwordFile: cannot read /run/secrets/kafka: ENOENT',
    );
    expect(() => clusterClientOptions(cluster({ cassandra: { contactPoints: ['c:9042'], localDataCenter: 'dc1', tls: { caFile: 'missing.pem' } } }), sources)).toThrow('cluster.cassandra.tls.caFile: cannot read missing.pem');
  });
});
