import { randomBytes } from 'node:crypto';
import cassandra from 'cassandra-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initCommand } from '../../cli/commands/init.ts';
import { connectClients } from '../../cli/connectClients.ts';
import { cassandraConnection, openStore } from '../../cli/openStore.ts';
import { parseEdgestreamConfig, type EdgestreamConfigInput } from '../../schemas/config/edgestreamConfig.ts';
import type { KafkaAdmin, KafkaPort } from '../../streams/kafka/index.ts';
import { stackEndpoints } from '../support/stack.ts';

// init against what already exists on the real single-node stack: a keyspace and topics made by
// hand with other settings than the config's. Single broker: a topic cannot have 2 replicas,
// but the config can ask for them (init then refuses before creating anything).

describe('init compares what exists with the config', () => {
  const endpoints = stackEndpoints();
  const run = randomBytes(4).toString('hex');
  const prefix = `it-drift-${run}.`;
  const keyspace = `it_drift_${run}`;
  const input = `${prefix}edge-mutations`;
  const plans = `${prefix}split-plans`;
  const dc = endpoints.cassandraLocalDc;
  let kafka: KafkaPort;
  let admin: KafkaAdmin;
  let cql: cassandra.Client;
  const lines: string[] = [];
  const started = Date.now();
  // Printed as they come, with the time since the file started: a run that stalls shows the last step that finished.
  const mark = (line: string) => console.log(`[initDrift +${Date.now() - started} ms] ${line}`);
  const say = (line: string) => {
    lines.push(line);
    mark(line);
  };

  const config = (over: Partial<EdgestreamConfigInput> = {}) =>
    parseEdgestreamConfig({
      edgeTypes: [{ name: 'follows' }],
      topics: { prefix, partitions: 3, replicationFactor: 1, minInsyncReplicas: 1 },
      cassandra: { keyspace, replication: { class: 'NetworkTopologyStrategy', dataCenters: { [dc]: 1 } } },
      ...over,
    });
  const init = async (c: ReturnType<typeof config>, apply = false) => {
    const { kafka, registry } = await connectClients(endpoints, `it-drift-${run}`);
    return initCommand({ kafka: async () => kafka, registry: async () => registry, endpoints, config: c, store: () => openStore(endpoints, c), apply, say });
  };
  const topicConfig = async (topic: string) => {
    const [described] = await admin.describeTopicConfigs([topic]);
    return Object.fromEntries(described!.entries.filter((e) => ['min.insync.replicas', 'retention.ms'].includes(e.name)).map((e) => [e.name, e.value]));
  };
  const keyspaceReplication = async () => (await cql.execute('SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = ?', [keyspace], { prepare: true })).first()?.get('replication');

  beforeAll(async () => {
    ({ kafka } = await connectClients(endpoints, `it-drift-${run}`));
    admin = kafka.admin();
    await admin.connect();
    cql = new cassandra.Client(cassandraConnection(endpoints));
    // What an older deployment left: the input topic with a stricter min.insync.replicas and its own retention, a plans topic
    // with fewer partitions, a keyspace at SimpleStrategy.
    await admin.createTopics({
      topics: [
        { topic: input, numPartitions: 3, replicationFactor: 1, configEntries: [{ name: 'min.insync.replicas', value: '2' }, { name: 'retention.ms', value: '123456789' }] },
        { topic: plans, numPartitions: 2, replicationFactor: 1 },
      ],
      waitForLeaders: true,
    });
    await cql.execute(`CREATE KEYSPACE ${keyspace} WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}`);
  });

  afterAll(async () => {
    await cql?.execute(`DROP KEYSPACE IF EXISTS ${keyspace}`).catch(() => {});
    const mine = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    if (mine.length > 0) await admin.deleteTopics({ topics: mine }).catch(() => {});
    await admin?.disconnect();
    await cql?.shutdown();
  });

  it('refuses, naming each difference, and creates nothing', async () => {
    const error = await init(config({ topics: { prefix, partitions: 3, replicationFactor: 2, minInsyncReplicas: 1 } })).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain('init: what exists differs from the config');
    expect(message).toContain(`topic ${input}: replication factor 1, config topics.replicationFactor 2 (init cannot change it safely; reassign its partitions: kafka-reassign-partitions.sh`);
    expect(message).toContain(`topic ${input}: min.insync.replicas 2, config topics.minInsyncReplicas 1 (init --apply changes it)`);
    expect(message).toContain(`topic ${plans}: 2 partitions, config topics.partitions 3 (init cannot change it safely; adding partitions moves keys`);
    expect(message).toContain(`keyspace ${keyspace}: replication class SimpleStrategy, config cassandra.replication NetworkTopologyStrategy (init --apply changes it; then run: nodetool repair -full ${keyspace}`);
    expect((await admin.listTopics()).filter((t) => t.startsWith(prefix)).sort()).toEqual([input, plans]);
    expect(await topicConfig(input)).toEqual({ 'min.insync.replicas': '2', 'retention.ms': '123456789' });
  });

  it('--apply changes min.insync.replicas (keeping the other overrides) and the keyspace replication, and still refuses the partition count', async () => {
    const error = await init(config(), true).catch((e: Error) => e);
    expect((error as Error).message).toMatch(new RegExp(`^init --apply cannot change these safely; nothing else was created:\\n  - topic ${plans.replace(/\./g, '\\.')}: 2 partitions, config topics.partitions 3 `));
    expect(lines).toContain(`changed topic ${input}: min.insync.replicas 2 → config topics.minInsyncReplicas 1`);
    expect(lines.find((l) => l.startsWith(`changed keyspace ${keyspace}`))).toContain('replication class SimpleStrategy → config cassandra.replication NetworkTopologyStrategy; now run: nodetool repair');
    expect(await topicConfig(input)).toEqual({ 'min.insync.replicas': '1', 'retention.ms': '123456789' });
    expect(await keyspaceReplication()).toEqual({ class: 'org.apache.cassandra.locator.NetworkTopologyStrategy', [dc]: '1' });
  });

  // Two full inits (every topic, schema and table): the work the suites' setup hooks do, with their time limit.
  const fullInitTimeoutMs = 300_000;

  it('goes on once nothing differs, and a second run finds nothing', async () => {
    await admin.deleteTopics({ topics: [plans] });
    // Topic deletion completes asynchronously on the broker.
    await expect.poll(async () => (await admin.listTopics()).includes(plans), { timeout: 30_000 }).toBe(false);
    mark(`deleted ${plans}`);
    await init(config());
    expect(lines.some((l) => l.startsWith('topics: created ') && l.includes(plans))).toBe(true);
    lines.length = 0;
    await init(config());
    expect(lines.filter((l) => l.startsWith('changed'))).toEqual([]);
    expect(lines[0]).toBe(`topics: created none; existing ${input}, ${prefix}edge-mutations.repair, ${prefix}edge-mutations.dlq, ${prefix}wide-partitions, ${prefix}wide-partitions.dlq, ${plans}, ${prefix}split-plans.dlq, ${prefix}split-results, ${prefix}split-results.dlq`);
  }, fullInitTimeoutMs);
});
