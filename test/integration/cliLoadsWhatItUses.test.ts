import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointsToEnv } from '../../stack/endpoints.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from '../support/edgestreamEnv.ts';
import { packagesLoadedBy } from '../support/packagesLoadedBy.ts';

const REGISTRY_CLIENT = '@kafkajs/confluent-schema-registry';

/**
 * A command starts in the time its own clients take (bench:cli): `lag` loaded the Cassandra driver, the
 * registry client and the whole pipeline (1 022 files, ~1 s), `count` a Kafka client and the registry's, for a
 * wide-partition event a one-shot read almost never sends. Against the real stack, what each one loads.
 */
describe('a networked CLI command loads only the clients it uses', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgestream-loads-'));
  const configFile = path.join(dir, 'edgestream.config.json');
  let env: EdgestreamEnv;
  let childEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    env = await createEdgestreamEnv({ name: 'loads', edgeTypes: ['follows'], partitions: 1 });
    fs.writeFileSync(configFile, JSON.stringify(env.configInput));
    childEnv = { ...process.env, ...endpointsToEnv(env.endpoints), LOG_LEVEL: 'warn' };
  }, 120_000);

  afterAll(async () => {
    await env?.teardown();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('lag: the Kafka client, not the Cassandra driver, the registry client or the other Kafka client', async () => {
    const loaded = await packagesLoadedBy(['--config', configFile, 'lag', '--json'], childEnv);
    expect(loaded).toContain('kafkajs');
    expect(loaded.filter((p) => ['cassandra-driver', REGISTRY_CLIENT, '@platformatic/kafka', 'avsc', 'fastify'].includes(p))).toEqual([]);
  }, 60_000);

  it('count: the Cassandra driver, no Kafka client, registry client or Avro codec', async () => {
    const loaded = await packagesLoadedBy(['--config', configFile, 'count', 'follows', 'v1', '--json'], childEnv);
    expect(loaded).toContain('cassandra-driver');
    expect(loaded.filter((p) => ['kafkajs', REGISTRY_CLIENT, '@platformatic/kafka', 'avsc', 'fastify'].includes(p))).toEqual([]);
  }, 60_000);
});
