import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import cassandra from 'cassandra-driver';
import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { kafkajsPort } from '../../streams/kafka/kafkajs/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownSchemas } from '../../schemas/index.ts';
import { decodeLinkValue, encodeVertexKey } from '../../sinks/namespaces/index.ts';
import { endpointsToEnv } from '../../stack/endpoints.ts';
import { createAvroSerde, subjectFor } from '../../streams/serde/index.ts';
import { REPO_ROOT, startProcessorProcess, type ProcessorProcess } from '../support/processorProcess.ts';
import { stackEndpoints } from '../support/stack.ts';
import { readTopic } from './runtimeFixture.ts';

const exec = promisify(execFile);

/**
 * The CLI as a user runs it, as child processes against the real stack: `init`, `produce
 * --file`, `run`, `lag`, `dlq`, `replay --dlq --dry-run`, and the errors a user sees for a
 * bad config field and a bad flag.
 */
describe('edgestream CLI, end to end', () => {
  const rand = randomBytes(4).toString('hex');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgestream-cli-'));
  const configFile = path.join(dir, 'edgestream.config.json');
  const keyspace = `cli_${rand}`;
  const prefix = `cli${rand}.`;
  const env = endpointsToEnv(stackEndpoints());
  const processes = new Set<ProcessorProcess>();

  const cli = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await exec(process.execPath, [path.join(REPO_ROOT, 'bin/edgestream.js'), ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env }, timeout: 120_000 });
      return { code: 0, stdout, stderr };
    } catch (e) {
      const err = e as { code?: number; stdout?: string; stderr?: string };
      return { code: err.code ?? 1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
    }
  };

  beforeAll(() => {
    fs.writeFileSync(configFile, JSON.stringify({
      edgeTypes: [{ name: 'follows' }],
      topics: { prefix, partitions: 2 },
      cassandra: { keyspace },
      runtime: { sessionTimeoutMs: 8_000, writeRetryBudgetMs: 1_000, cascadeSettleMs: 6_500, tombstoneCacheTtlMs: 300, recountIntervalMs: 300 },
    }));
  });

  afterAll(async () => {
    for (const p of processes) if (p.alive()) await p.kill('SIGKILL');
    const kafka = new Kafka({ brokers: env['KAFKA_BROKERS']!.split(','), logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    if (topics.length) await admin.deleteTopics({ topics });
    await admin.disconnect();
    const cql = new cassandra.Client({ contactPoints: env['CASSANDRA_CONTACT_POINTS']!.split(','), localDataCenter: env['CASSANDRA_LOCAL_DC']! });
    await cql.execute(`DROP KEYSPACE IF EXISTS ${keyspace}`);
    await cql.shutdown();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names the bad config field and the bad flag', async () => {
    const badConfig = path.join(dir, 'bad.json');
    fs.writeFileSync(badConfig, JSON.stringify({ edgeTypes: [{ name: 'Follows!' }] }));
    const a = await cli('--config', badConfig, 'lag');
    expect(a.code).not.toBe(0);
    expect(a.stderr).toMatch(/edgeTypes\.0\.name: must be a lowercase identifier/);
    const b = await cli('--config', configFile, 'produce', '--synthetic', 'many');
    expect(b.code).not.toBe(0);
    expect(b.stderr).toMatch(/--synthetic must be a positive integer, got "many"/);
  });

  it('init, produce, run, lag, dlq and replay work as documented', { timeout: 240_000 }, async () => {
    const init = await cli('--config', configFile, 'init');
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toMatch(new RegExp(`created ${prefix.replace('.', '\\.')}edge-mutations`));
    expect(init.stdout).toMatch(/namespaces follows_out, follows_in/);
    const again = await cli('--config', configFile, 'init');
    expect(again.stdout).toMatch(/topics: created none/);

    const ops = path.join(dir, 'ops.ndjson');
    fs.writeFileSync(ops, [
      { op: 'ADD_EDGE', type: 'follows', src: 'alice', dst: 'bob', properties: { since: 2024 } },
      { op: 'ADD_EDGE', type: 'follows', src: 'carol', dst: 'bob' },
      { op: 'REMOVE_EDGE', type: 'follows', src: 'carol', dst: 'bob' },
    ].map((o) => JSON.stringify(o)).join('\n'));
    const produced = await cli('--config', configFile, 'produce', '--file', ops);
    expect(produced.code, produced.stderr).toBe(0);
    expect(produced.stdout).toMatch(/published 3 mutation\(s\)/);

    const badLine = path.join(dir, 'bad.ndjson');
    fs.writeFileSync(badLine, `${JSON.stringify({ op: 'ADD_EDGE', type: 'follows', src: 'a' })}\n`);
    const rejected = await cli('--config', configFile, 'produce', '--file', badLine);
    expect(rejected.stderr).toMatch(/bad\.ndjson:1: dst/);

    const run = startProcessorProcess({ configFile, stages: ['all'], env, logPath: path.join(dir, 'run.log'), registry: processes });
    const cql = new cassandra.Client({ contactPoints: env['CASSANDRA_CONTACT_POINTS']!.split(','), localDataCenter: env['CASSANDRA_LOCAL_DC']!, keyspace });
    try {
      const link = async (src: string, dst: string) => {
        const rs = await cql.execute('SELECT value FROM follows_out WHERE id = ? AND key = ?', [src, Buffer.from(encodeVertexKey(dst))], { prepare: true });
        const v = rs.first()?.['value'] as Buffer | undefined;
        return v ? decodeLinkValue(v).state : undefined;
      };
      const deadline = Date.now() + 90_000;
      while ((await link('carol', 'bob')) !== 'REMOVED' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
      expect(await link('alice', 'bob')).toBe('ACTIVE');
      expect(await link('carol', 'bob')).toBe('REMOVED');

      const lag = await cli('--config', configFile, 'lag', '--json');
      const rows = JSON.parse(lag.stdout) as { group: string; lag: number }[];
      expect(rows.map((r) => r.group)).toContain(`${prefix}fan-out`);
      expect(rows.find((r) => r.group === `${prefix}fan-out`)?.lag).toBe(0);

      const dlq = await cli('--config', configFile, 'dlq', '--json');
      expect(dlq.code, dlq.stderr).toBe(0);
      expect(dlq.stdout.trim()).toBe('');
      const replay = await cli('--config', configFile, 'replay', '--dlq', '--dry-run');
      expect(replay.stderr).toMatch(/replaying 0 record\(s\)/);
      const replayInput = await cli('--config', configFile, 'replay', '--from-offset', '0', '--dry-run');
      expect(replayInput.stderr).toMatch(/replaying 3 record\(s\)/);
    } finally {
      await cql.shutdown();
      const exit = await run.kill('SIGTERM');
      expect(exit.code).toBe(0);
    }
  });

  it('replay refuses events older than the resurrection horizon unless --force, which warns', { timeout: 180_000 }, async () => {
    // Default retention: gc_grace_seconds 10 days − a 1-day margin = a 9-day horizon on event_time.
    expect((await cli('--config', configFile, 'init')).code).toBe(0);
    const kafka = new Kafka({ brokers: env['KAFKA_BROKERS']!.split(','), logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    const input = `${prefix}edge-mutations`;
    const records = async () => (await admin.fetchTopicOffsets(input)).reduce((n, p) => n + Number(p.high), 0);
    try {
      const produce = async (name: string, lines: object[]) => {
        const file = path.join(dir, name);
        fs.writeFileSync(file, lines.map((o) => JSON.stringify(o)).join('\n'));
        const r = await cli('--config', configFile, 'produce', '--file', file);
        expect(r.code, r.stderr).toBe(0);
      };
      const since = Date.now();
      const twentyDaysAgoMicros = BigInt(Date.now() - 20 * 86_400_000) * 1000n;
      const old = { op: 'SET_PROPERTIES', type: 'follows', src: 'old', dst: 'bob', properties: { muted: true }, eventTime: String(twentyDaysAgoMicros) };
      // The SDK behind `produce` refuses an event past the horizon, naming the argument.
      fs.writeFileSync(path.join(dir, 'old.ndjson'), JSON.stringify(old));
      const refusedOld = await cli('--config', configFile, 'produce', '--file', path.join(dir, 'old.ndjson'));
      expect(refusedOld.code).not.toBe(0);
      expect(refusedOld.stderr).toMatch(/eventTime: .*past the resurrection horizon/);
      // Published now (a fresh Kafka timestamp) by a raw producer, but its event_time is 20 days old, as a DLQ'd or replayed event's can be.
      const serde = createAvroSerde({ registry: new SchemaRegistry({ host: stackEndpoints().schemaRegistryUrl }) });
      const raw = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
      await raw.connect();
      const event = { mutation_id: 'old-muted', op: 'SET_PROPERTIES', edge_type: 'follows', src: 'old', dst: 'bob', event_time: twentyDaysAgoMicros, properties: { muted: true }, property_keys: [] };
      await raw.send({ topic: input, acks: -1, messages: [{ key: 'old', value: await serde.encode(subjectFor(input, knownSchemas.EdgeMutation), event) }] });
      await raw.disconnect();
      await produce('new.ndjson', [{ op: 'ADD_EDGE', type: 'follows', src: 'new', dst: 'bob' }]);
      const before = await records();

      const refused = await cli('--config', configFile, 'replay', '--from-time', String(since));
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/older than the resurrection horizon/);
      expect(refused.stderr).toMatch(/retention\.gcGraceSeconds/);
      expect(refused.stderr).toMatch(/--force/);
      expect(await records()).toBe(before); // nothing was re-published

      const forced = await cli('--config', configFile, 'replay', '--from-time', String(since), '--force');
      expect(forced.code, forced.stderr).toBe(0);
      expect(forced.stderr).toMatch(/warning: .*older than the resurrection horizon/);
      expect(await records()).toBe(before + 2);
      // Marked, so that the fan-out, which refuses event times past the horizon, applies them.
      const republished = (await readTopic(kafkajsPort(kafka), input, before + 2)).filter((r) => r.headers['edgestream-replayed-from'] !== undefined);
      expect(republished.map((r) => r.headers['edgestream-replay-forced'])).toEqual(['1', '1']);

      const recentOnly = Date.now();
      await produce('recent.ndjson', [{ op: 'ADD_EDGE', type: 'follows', src: 'newer', dst: 'bob' }]);
      const accepted = await cli('--config', configFile, 'replay', '--from-time', String(recentOnly));
      expect(accepted.code, accepted.stderr).toBe(0);
      expect(accepted.stderr).not.toMatch(/warning/);
      expect(await records()).toBe(before + 4);
    } finally {
      await admin.disconnect();
    }
  });
});
