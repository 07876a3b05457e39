import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import cassandra from 'cassandra-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectKafka } from '../../cli/connectKafka.ts';
import { endpointsToEnv } from '../../stack/endpoints.ts';
import { packagesLoadedBy } from '../support/packagesLoadedBy.ts';
import { stackEndpoints } from '../support/stack.ts';

const REGISTRY_CLIENT = '@kafkajs/confluent-schema-registry';

/**
 * A command starts in the time its own clients take (bench:cli): `lag` loaded the Cassandra driver, the
 * registry client and the whole pipeline (1 022 files, ~1 s), `count` a Kafka client and the registry's, for a
 * wide-partition event a one-shot read almost never sends. Against the real stack, what each one loads.
 */
describe('a networked CLI command loads only the clients it uses', () => {
  const rand = randomBytes(4).toString('hex');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgestream-loads-'));
  const configFile = path.join(dir, 'edgestream.config.json');
  const keyspace = `loads_${rand}`;
  const prefix = `loads${rand}.`;
  const endpoints = stackEndpoints();
  const env = { ...process.env, ...endpointsToEnv(endpoints), LOG_LEVEL: 'warn' };

  beforeAll(async () => {
    fs.writeFileSync(configFile, JSON.stringify({ edgeTypes: [{ name: 'follows' }], topics: { prefix, partitions: 1 }, cassandra: { keyspace } }));
    await packagesLoadedBy(['--config', configFile, 'init'], env);
  }, 120_000);

  afterAll(async () => {
    const admin = (await connectKafka(endpoints, `it-loads-${rand}`)).admin();
    await admin.connect();
    await admin.deleteTopics({ topics: (await admin.listTopics()).filter((t) => t.startsWith(prefix)) });
    await admin.disconnect();
    const cql = new cassandra.Client({ contactPoints: [...endpoints.cassandraContactPoints], localDataCenter: endpoints.cassandraLocalDc });
    await cql.execute(`DROP KEYSPACE IF EXISTS ${keyspace}`);
    await cql.shutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('lag: the Kafka client, not the Cassandra driver, the registry client or the other Kafka client', async () => {
    const loaded = await packagesLoadedBy(['--config', configFile, 'lag', '--json'], env);
    expect(loaded).toContain('kafkajs');
    expect(loaded.filter((p) => ['cassandra-driver', REGISTRY_CLIENT, '@platformatic/kafka', 'avsc', 'fastify'].includes(p))).toEqual([]);
  }, 60_000);

  it('count: the Cassandra driver, no Kafka client, registry client or Avro codec', async () => {
    const loaded = await packagesLoadedBy(['--config', configFile, 'count', 'follows', 'v1', '--json'], env);
    expect(loaded).toContain('cassandra-driver');
    expect(loaded.filter((p) => ['kafkajs', REGISTRY_CLIENT, '@platformatic/kafka', 'avsc', 'fastify'].includes(p))).toEqual([]);
  }, 60_000);
});
