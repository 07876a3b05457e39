import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import cassandra from 'cassandra-driver';
import type { KafkaPort } from '../../streams/kafka/index.ts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterClientOptions } from '../../cli/clusterClientOptions.ts';
import { groupsLag } from '../../cli/commands/lag.ts';
import { startEdgeService, type RunningService } from '../../cli/commands/serve.ts';
import { connectClients } from '../../cli/connectClients.ts';
import { logRedaction } from '../../cli/logRedaction.ts';
import { cassandraConnection, openStore } from '../../cli/openStore.ts';
import { parseEdgestreamConfig, type EdgestreamConfig, type EdgestreamConfigInput } from '../../schemas/config/edgestreamConfig.ts';
import type { TwoLevelMapStore } from '../../sinks/store/TwoLevelMapStore.ts';
import { createWideRowRepository } from '../../sinks/wide/index.ts';
import { STACK_ENV_NAMES, type StackEndpoints } from '../../stack/endpoints.ts';
import { readSecureMaterial, SECURE_SECRETS, type SecureSecretName } from '../../stack/secureMaterial.ts';
import { loadSecureStackConfig, secureClusterSection, secureStackDown, secureStackUp } from '../../stack/secureStack.ts';
import { createEdgeProducer, type EdgeProducer } from '../../streams/producer/index.ts';
import { createAvroSerde } from '../../streams/serde/index.ts';
import { edgePipelineGroups } from '../../streams/topology/createEdgePipeline.ts';
import { killAll, REPO_ROOT, startProcessorProcess, type ProcessorProcess } from '../support/processorProcess.ts';
import { waitFor as waitUntil } from '../support/waitFor.ts';

const exec = promisify(execFile);

/**
 * Issue 26 §1 on the secured local stack (stack/secureStack.ts, its own dir and ports beside the
 * plain stack): Kafka only on SASL_SSL with SCRAM users, Cassandra with PasswordAuthenticator and
 * client TLS, the registry on https with basic auth. Every client is built from the config's
 * `cluster` section, secrets by file, as a deployment does: the CLI's `init`, `run` (the processors
 * and the split chain, a child process), `splits` and `lag`, and in this process the producer SDK
 * and the HTTP server. Wrong credentials fail on their own, naming the connection; no logger output
 * of the suite holds a secret. The suite brings the secured stack up itself and fails saying why if
 * it cannot; it stops the stack again if it started it.
 */
describe('the secured stack: SASL_SSL Kafka, TLS + password Cassandra, https + basic-auth registry', () => {
  const stackConfig = loadSecureStackConfig(process.env, REPO_ROOT);
  const rand = randomBytes(4).toString('hex');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'edgestream-secure-'));
  const processes = new Set<ProcessorProcess>();
  /** Every line any logger or CLI of this suite wrote, for the secrets check. */
  const output: string[] = [];
  /** The child environment: the cluster comes from the config only (setting both is an error). */
  const childEnv: Record<string, string> = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && ![...STACK_ENV_NAMES, 'CASSANDRA_LOCAL_DC', 'EDGESTREAM_STACK'].includes(e[0])),
  );
  childEnv['LOG_LEVEL'] = 'debug';
  const wrongPasswordFile = path.join(tmp, 'wrong.password');
  const wrongPassword = randomBytes(16).toString('hex');
  let weStartedTheStack = false;
  let configInput: EdgestreamConfigInput;
  let configFile: string;
  let config: EdgestreamConfig;
  let endpoints: StackEndpoints;
  let kafka: KafkaPort;
  let registry: SchemaRegistry;
  let store: TwoLevelMapStore | undefined;
  let service: RunningService | undefined;
  let producer: EdgeProducer | undefined;
  let chain: ProcessorProcess;

  const cli = async (file: string, ...args: string[]) => {
    const t0 = Date.now();
    let result: { code: number; stdout: string; stderr: string };
    try {
      const { stdout, stderr } = await exec(process.execPath, [path.join(REPO_ROOT, 'bin/edgestream.js'), '--config', file, ...args], { cwd: REPO_ROOT, env: childEnv, timeout: 150_000 });
      result = { code: 0, stdout, stderr };
    } catch (e) {
      const err = e as { code?: number; signal?: string; stdout?: string; stderr?: string };
      result = { code: err.code ?? (err.signal ? -1 : 1), stdout: err.stdout ?? '', stderr: `${err.stderr ?? ''}${err.signal ? `\n(killed by ${err.signal}: did not exit on its own)` : ''}` };
    }
    output.push(result.stdout, result.stderr);
    return { ...result, seconds: (Date.now() - t0) / 1000 };
  };
  const get = async (pathAndQuery: string) => {
    const res = await fetch(`${service!.url}${pathAndQuery}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  /** Every in-neighbour of `vertex` through the server, page by page (each read counts towards wide detection). */
  const inNeighbours = async (vertex: string) => {
    const peers: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await get(`/v1/vertices/${vertex}/in/follows?order=peer&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      peers.push(...(page.body['items'] as { peer: string }[]).map((i) => i.peer));
      cursor = page.body['cursor'] as string | undefined;
    } while (cursor !== undefined);
    return peers;
  };
  const waitFor = (what: string, check: () => Promise<boolean>, timeoutMs: number) => waitUntil(what, check, timeoutMs, () => `; the chain's log:\n${chain.tail()}`, 250);

  beforeAll(async () => {
    const up = await secureStackUp(stackConfig, (line) => console.log(`[secure stack] ${line}`));
    weStartedTheStack = up.started.length > 0;
    fs.writeFileSync(wrongPasswordFile, wrongPassword);
    configInput = {
      edgeTypes: [{ name: 'follows' }],
      topics: { prefix: `sec${rand}.`, partitions: 2, replicationFactor: 1 },
      cassandra: { keyspace: `sec_${rand}`, replicationFactor: 1 },
      runtime: { sessionTimeoutMs: 8_000, writeRetryBudgetMs: 1_000, cascadeSettleMs: 6_500, tombstoneCacheTtlMs: 300, recountIntervalMs: 500 },
      // A partition read past 150 rows is wide: the chain splits a 300-follower vertex.
      wide: { thresholdRows: 150, windowMs: 600_000, coolDownMs: 600_000, targetBucketBytes: 1_024, maxBuckets: 4, directoryRefreshMs: 2_000, verifySettleMs: 1_000 },
      cluster: secureClusterSection(stackConfig) as NonNullable<EdgestreamConfigInput['cluster']>,
    };
    configFile = path.join(tmp, 'edgestream.config.json');
    fs.writeFileSync(configFile, JSON.stringify(configInput, null, 2));
    config = parseEdgestreamConfig(configInput, 'secured test config');

    const init = await cli(configFile, 'init');
    if (init.code !== 0) throw new Error(`edgestream init on the secured stack failed:\n${init.stderr}`);
    chain = startProcessorProcess({ configFile, stages: ['fanout', 'repair', 'plan', 'split', 'verify'], env: childEnv, logPath: path.join(tmp, 'run.log'), registry: processes });

    // The producer SDK and the server in this process, their clients from the same cluster section.
    endpoints = clusterClientOptions(config.cluster!);
    ({ kafka, registry } = await connectClients(endpoints, `it-secure-${rand}`));
    const logger = pino({ level: 'debug', redact: logRedaction }, { write: (line: string) => void output.push(line) });
    store = await openStore(endpoints, config);
    const opened = store;
    service = await startEdgeService({ config, endpoints, kafka: async () => kafka, registry: async () => registry, logger, store: async () => opened }, { port: 0, host: '127.0.0.1' });
    producer = createEdgeProducer({ kafka, serde: createAvroSerde({ registry }), config });
  }, 900_000);

  afterAll(async () => {
    await killAll(processes);
    if (fs.existsSync(path.join(tmp, 'run.log'))) output.push(fs.readFileSync(path.join(tmp, 'run.log'), 'utf8'));
    await producer?.close().catch(() => {});
    await service?.stop().catch(() => {});
    await store?.close().catch(() => {});
    if (weStartedTheStack) {
      await secureStackDown(stackConfig, (line) => console.log(`[secure stack] ${line}`));
    } else if (endpoints) {
      // A stack someone keeps running: leave it as found.
      const admin = kafka.admin();
      await admin.connect().then(async () => {
        const topics = (await admin.listTopics()).filter((t) => t.startsWith(config.topics.prefix));
        if (topics.length) await admin.deleteTopics({ topics });
      }).catch(() => {}).finally(() => admin.disconnect());
      const cql = new cassandra.Client(cassandraConnection(endpoints));
      await cql.execute(`DROP KEYSPACE IF EXISTS ${config.cassandra.keyspace}`).catch(() => {});
      await cql.shutdown();
    }
    if (!process.env['IT_KEEP_LOGS']) fs.rmSync(tmp, { recursive: true, force: true });
  }, 300_000);

  it('writes through the producer SDK and the processors to Cassandra, reads through the server, and splits a wide partition', { timeout: 420_000 }, async () => {
    const followers = Array.from({ length: 300 }, (_, i) => `f${String(i).padStart(3, '0')}`);
    for (const f of followers) void producer!.addEdge({ type: 'follows', src: f, dst: 'celeb' });
    await producer!.flush();
    const sent = await producer!.addEdge({ type: 'follows', src: 'celeb', dst: 'fan' });

    // Read once the fan-out and repair are through (a split of a partition still being written
    // would rightly fail its verification); the server's one read of celeb crosses the wide threshold.
    const groups = edgePipelineGroups(config).filter((g) => g.stage === 'fanout' || g.stage === 'repair');
    const admin = kafka.admin();
    await admin.connect();
    try {
      // A fresh broker answers 'coordinator is loading' for a while: a failed poll is "not yet".
      const caughtUp = async () => (await groupsLag(admin, groups)).every((l) => l.lag === 0);
      await waitFor('the fan-out and repair to catch up', () => caughtUp().catch(() => false), 240_000);
    } finally {
      await admin.disconnect();
    }
    expect(await inNeighbours('celeb')).toEqual(followers);
    const edge = await get('/v1/edges/follows/celeb/fan');
    expect(edge.status).toBe(200);
    expect(edge.body['state']).toBe('ACTIVE');
    expect(edge.body['mutationId']).toBe(sent.mutationId);

    // The split chain (plan → split → verify, in the child) over the same secured connections.
    const wideRows = createWideRowRepository(store!);
    await waitFor('the split of follows_in[celeb] to complete', async () => {
      const r = await wideRows.get('follows_in', 'celeb');
      if (r?.status === 'FAILED') throw new Error(`the split FAILED: ${JSON.stringify(r)}`);
      return r?.status === 'COMPLETED';
    }, 240_000);
    await sleep(3 * config.wide.directoryRefreshMs);
    expect(await inNeighbours('celeb')).toEqual(followers);

    const splits = await cli(configFile, 'splits');
    expect(splits.code).toBe(0);
    expect(splits.stdout).toMatch(/follows_in\[celeb\]\s+COMPLETED/);
    const lag = await cli(configFile, 'lag');
    expect(lag.code).toBe(0);
  });

  it('a wrong password fails on its own within seconds, naming the connection that refused it', { timeout: 300_000 }, async () => {
    const withWrong = (which: 'kafka' | 'registry' | 'cassandra') => {
      // The section as JSON: the password file of one connection swapped for a wrong one.
      const cluster = JSON.parse(JSON.stringify(secureClusterSection(stackConfig)).replaceAll(JSON.stringify(readSecureMaterial(stackConfig.runDir).secretFile(which)), JSON.stringify(wrongPasswordFile))) as unknown;
      const file = path.join(tmp, `wrong-${which}.json`);
      fs.writeFileSync(file, JSON.stringify({ ...configInput, cluster }));
      return file;
    };
    const cases = [
      { which: 'kafka', names: /^edgestream: Kafka \(127\.0\.0\.1:\d+\) refused the connection.*SASL SCRAM SHA512 authentication failed/m },
      { which: 'registry', names: /^edgestream: schema registry \(https:\/\/127\.0\.0\.1:\d+\/apis\/ccompat\/v7\) refused the connection.*status 401/m },
      { which: 'cassandra', names: /^edgestream: Cassandra \(127\.0\.0\.1:\d+\) refused the connection.*AuthenticationError/m },
    ] as const;
    const runs = await Promise.all(cases.map((c) => cli(withWrong(c.which), 'run', 'fanout')));
    cases.forEach((c, i) => {
      const run = runs[i]!;
      console.log(`wrong ${c.which} password: exit ${run.code} after ${run.seconds.toFixed(1)} s (process start included)`);
      expect(run.stderr).not.toMatch(/did not exit on its own/);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(c.names);
    });
  });

  it('no logger or CLI output of this suite holds a secret', async () => {
    await killAll(processes); // the run child's last lines are in its log before it is read
    output.push(fs.readFileSync(path.join(tmp, 'run.log'), 'utf8'));
    const all = output.join('\n');
    // The check reads real logs: the child's, the server's and the CLI's.
    expect(all).toContain('running; SIGTERM or SIGINT stops gracefully');
    expect(all).toContain('"msg":"serving"');
    expect(all).toContain('topics: created');
    const material = readSecureMaterial(stackConfig.runDir);
    const secrets = [...(Object.keys(SECURE_SECRETS) as SecureSecretName[]).map((n) => material.secret(n)), material.certs.storePassword, wrongPassword];
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThanOrEqual(16);
      expect(all.includes(secret), `a secret (${secret.slice(0, 4)}…) appears in the suite's output`).toBe(false);
    }
  });
});
