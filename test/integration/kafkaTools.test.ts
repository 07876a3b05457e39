import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEdgestreamConfig, type EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { knownSchemas, type EdgeMutation } from '../../schemas/index.ts';
import { endpointsToEnv } from '../../stack/endpoints.ts';
import { HEADERS, headerString } from '../../streams/runtime/index.ts';
import { createEdgeProducer } from '../../streams/producer/index.ts';
import { subjectFor } from '../../streams/serde/index.ts';
import { createEdgePipeline, edgePipelineGroups, type EdgePipeline } from '../../streams/topology/createEdgePipeline.ts';
import { consumeMessages } from '../support/consumeMessages.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from '../support/edgestreamEnv.ts';
import { requireKafkaTools, runKafkaTool, spawnKafkaTool, toolResult } from '../support/kafkaTool.ts';
import { applyLww } from '../support/model/applyLww.ts';
import { modelGraphLines } from '../support/model/graphLines.ts';
import { readFullStoreGraph } from '../support/model/readFullStoreGraph.ts';
import { readStoreGraph } from '../support/model/readStoreGraph.ts';
import { syntheticMutations } from '../support/model/syntheticMutations.ts';
import { publishMutations } from '../support/publishMutations.ts';
import { waitForQuiescence } from '../support/waitForQuiescence.ts';

/**
 * Issue 27 §2: the operator paths with Kafka's own tools (`npm run kafka -- <tool>`,
 * run as child processes against the real stack; the pipeline runs in this
 * process and is stopped and started like a processor deployment).
 *
 * 1. A time-range replay through `kafka-consumer-groups --reset-offsets
 *    --to-datetime` on the fan-out group: refused while the group is running;
 *    once it is stopped, the group is moved back to exactly the records after
 *    the datetime, and after a restart the store equals what it was before
 *    (and the LWW model of every event).
 * 2. The DLQ read with `kafka-console-consumer --property print.headers=true`
 *    shows the reason headers of a deliberately bad record (a property bag over
 *    `limits.maxPropertyBagBytes`), and its value byte for byte (base64).
 * 3. After the fix (the limit raised, the processor restarted), the
 *    dead-lettered record piped from the console consumer into
 *    `kafka-console-producer` through the base64 helpers lands in the store;
 *    piped through Kafka's own line reader (text), it arrives mangled and is
 *    dead-lettered as undecodable.
 */
const BAG_LIMIT = 256;

describe('Kafka command-line tools on the local stack', () => {
  let env: EdgestreamEnv;
  let toolEnv: Record<string, string>;
  let pipeline: EdgePipeline | undefined;
  let fanOutGroup: string;

  const startPipeline = async (config: EdgestreamConfig) => {
    pipeline = createEdgePipeline({ kafka: env.kafka, serde: env.serde, store: env.store, config, logger: env.logger, tuning: { progressIntervalMs: 600_000 } });
    await pipeline.start();
  };
  const stopPipeline = async () => {
    await pipeline?.stop();
    pipeline = undefined;
  };
  const quiet = (config: EdgestreamConfig) => waitForQuiescence({ admin: env.admin, config, store: env.store, timeoutMs: 180_000, pollMs: 300 });
  const t0 = Date.now();
  const step = (what: string) => console.log(`[kafkaTools] ${what} at ${Date.now() - t0} ms`);
  const committedOffsets = async () =>
    (await env.admin.fetchOffsets({ groupId: fanOutGroup, topics: [env.topics.input] }))[0]?.partitions.map((p) => `${p.partition}:${p.offset}`).sort() ?? [];

  beforeAll(async () => {
    await requireKafkaTools();
    env = await createEdgestreamEnv({ name: 'kafkatools', partitions: 3, limits: { maxPropertyBagBytes: BAG_LIMIT } });
    toolEnv = endpointsToEnv(env.endpoints);
    const fanOut = edgePipelineGroups(env.config).find((g) => g.stage === 'fanout');
    if (!fanOut) throw new Error('no fan-out group');
    fanOutGroup = fanOut.group;
    await startPipeline(env.config);
  }, 600_000);

  afterAll(async () => {
    await stopPipeline().catch(() => {});
    await env?.teardown();
  });

  it('kafka-topics lists the topics edgestream init created', { timeout: 90_000 }, async () => {
    const listed = await runKafkaTool('topics', ['--list'], toolEnv);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.split('\n')).toEqual(expect.arrayContaining([env.topics.input, env.topics.repair, env.topics.dlq]));
  });

  it('replays a time range with kafka-consumer-groups --reset-offsets --to-datetime on the stopped fan-out group; the store is identical afterwards', { timeout: 300_000 }, async () => {
    const seed = 2727;
    const events = syntheticMutations({ events: 2_000, users: 150, seed, baseMicros: BigInt(Date.now() - 60_000) * 1000n, idPrefix: `kt${seed}` });
    const producer = createEdgeProducer({ kafka: env.kafka, serde: env.serde, config: env.config });
    let from: Date;
    try {
      await publishMutations(producer, events.slice(0, 1_000));
      await sleep(100);
      from = new Date();
      await sleep(100);
      await publishMutations(producer, events.slice(1_000));
    } finally {
      await producer.close();
    }
    await quiet(env.config);
    step('2000 events applied');
    const keyspace = env.config.cassandra.keyspace;
    const edgeTypes = env.config.edgeTypes.map((t) => t.name);
    const before = await readFullStoreGraph(env.store, env.cql, keyspace, edgeTypes);
    expect(before).toEqual(modelGraphLines(applyLww(events)));
    const atEnd = await committedOffsets();

    // --timeout: the tool's 5 s default for finding the coordinator is short on a busy 2-core machine.
    const reset = ['--group', fanOutGroup, '--topic', env.topics.input, '--reset-offsets', '--to-datetime', from.toISOString(), '--execute', '--timeout', '30000'];
    // While the processor runs, the tool refuses and moves nothing.
    const refused = await runKafkaTool('consumer-groups', reset, toolEnv);
    expect(refused.stdout + refused.stderr).toMatch(/inactive/);
    expect(await committedOffsets()).toEqual(atEnd);

    step('the reset refused while running');
    await stopPipeline();
    const done = await runKafkaTool('consumer-groups', reset, toolEnv);
    expect(done.code, done.stderr).toBe(0);
    // Exactly the records after the datetime (the second half and any cascade events appended since) are behind the group again.
    const described = await runKafkaTool('consumer-groups', ['--describe', '--group', fanOutGroup, '--timeout', '30000'], toolEnv);
    expect(described.code, described.stderr).toBe(0);
    const lag = describedLag(described.stdout, env.topics.input);
    const byTime = await env.admin.fetchTopicOffsetsByTimestamp(env.topics.input, from.getTime());
    const ends = await env.admin.fetchTopicOffsets(env.topics.input);
    const expectedLag = ends.reduce((n, p) => n + Number(p.high) - Number(byTime.find((t) => t.partition === p.partition)?.offset ?? p.high), 0);
    expect(lag).toBe(expectedLag);
    expect(lag).toBeGreaterThanOrEqual(1_000);
    expect(lag).toBeLessThan(ends.reduce((n, p) => n + Number(p.high), 0));

    step(`reset done, lag ${lag}`);
    await startPipeline(env.config);
    await quiet(env.config);
    step('replay applied');
    // The restarted fan-out really consumed and wrote the range again: the store is equal because the writes are idempotent, not because nothing ran.
    const fanOutMetrics = pipeline?.runners.find((r) => r.groupId === fanOutGroup)?.metrics();
    expect(fanOutMetrics?.records).toBe(lag);
    expect(fanOutMetrics?.mutations).toBeGreaterThan(0);
    expect(await committedOffsets()).toEqual(atEnd);
    expect(await env.dlqCount()).toBe(0);
    const after = await readFullStoreGraph(env.store, env.cql, keyspace, edgeTypes);
    expect(after).toEqual(before);
  });

  it('shows the DLQ reason headers through kafka-console-consumer, and the console producer re-publishes the record after the fix', { timeout: 300_000 }, async () => {
    const bad: EdgeMutation = {
      mutation_id: 'kt-too-big-bag',
      op: 'ADD_EDGE',
      edge_type: 'follows',
      src: 'kt-src',
      dst: 'kt-dst',
      event_time: BigInt(Date.now()) * 1000n,
      properties: { note: 'x'.repeat(BAG_LIMIT * 2) },
      property_keys: [],
    };
    // Straight to Kafka: the SDK would refuse it before sending.
    const value = await env.serde.encode(await env.registry.getLatestSchemaId(subjectFor(env.topics.input, knownSchemas.EdgeMutation)), bad);
    const raw = env.kafka.producer();
    await raw.connect();
    try {
      await raw.send({ topic: env.topics.input, messages: [{ key: bad.src, value }] });
    } finally {
      await raw.disconnect();
    }
    await quiet(env.config);
    expect(await env.dlqCount()).toBe(1);

    const readDlq = ['--topic', env.topics.dlq, '--from-beginning', '--max-messages', '1', '--timeout-ms', '60000', '--property', 'print.key=true', '--property', 'value.deserializer=edgestream.tools.Base64Deserializer'];
    const shown = await runKafkaTool('console-consumer', [...readDlq, '--property', 'print.headers=true', '--property', 'print.partition=true', '--property', 'print.offset=true'], toolEnv);
    expect(shown.code, shown.stderr).toBe(0);
    const line = shown.stdout.trimEnd();
    expect(line).toContain(`${HEADERS.dlqReason}:invalid`);
    expect(line).toContain(`${HEADERS.dlqField}:properties`);
    expect(line).toContain(`${HEADERS.dlqSourceTopic}:${env.topics.input}`);
    const [partition, offset, headers, key, printed] = line.split('\t');
    // Headers print as name:value joined by commas; the error text may hold commas itself.
    expect(headers).toMatch(new RegExp(`${HEADERS.dlqError}:encodes to \\d+ bytes .*more than the ${BAG_LIMIT} allowed`));
    expect(key).toBe(bad.src);
    expect(Buffer.from(printed ?? '', 'base64').equals(value)).toBe(true);
    const theRecord = ['--topic', env.topics.dlq, '--partition', (partition ?? '').replace('Partition:', ''), '--offset', (offset ?? '').replace('Offset:', ''), '--max-messages', '1', '--timeout-ms', '60000'];

    // The fix: the limit raised, the processor restarted.
    const fixed = parseEdgestreamConfig({ ...env.configInput, limits: { ...env.configInput.limits, maxPropertyBagBytes: BAG_LIMIT * 8 } }, 'fixed config');
    await stopPipeline();
    await startPipeline(fixed);
    const pipe = async (consumerArgs: readonly string[], producerArgs: readonly string[]) => {
      const consumer = spawnKafkaTool('console-consumer', consumerArgs, toolEnv);
      const producer = spawnKafkaTool('console-producer', ['--topic', env.topics.input, ...producerArgs], toolEnv);
      consumer.stdout?.pipe(producer.stdin!);
      const [consumed, produced] = await Promise.all([toolResult(consumer), toolResult(producer)]);
      expect(consumed.code, consumed.stderr).toBe(0);
      expect(produced.code, produced.stderr).toBe(0);
    };

    // Kafka's own line reader sends text: the raw value arrives mangled (and split at any newline byte) and is dead-lettered as undecodable.
    await pipe(theRecord, []);
    await quiet(fixed);
    step('raw pipe done');
    const dlq = await consumeMessages(env.kafka, env.topics.dlq, await env.dlqCount());
    const mangled = dlq.filter((m) => headerString(m.headers, HEADERS.dlqReason) !== 'invalid');
    expect(mangled.length).toBeGreaterThan(0);
    expect(mangled.map((m) => headerString(m.headers, HEADERS.dlqReason))).toEqual(mangled.map(() => 'undecodable'));
    expect(await readStoreGraph(env.store, ['follows'], [bad.src, bad.dst])).toEqual([]);

    // Through the base64 helpers the bytes arrive exactly, and the record lands.
    const dlqBefore = await env.dlqCount();
    await pipe(
      [...theRecord, '--property', 'print.key=true', '--property', 'value.deserializer=edgestream.tools.Base64Deserializer'],
      ['--property', 'parse.key=true', '--line-reader', 'edgestream.tools.Base64LineReader'],
    );
    await quiet(fixed);
    step('base64 pipe done');
    expect(await env.dlqCount()).toBe(dlqBefore); // not dead-lettered again
    expect(await readStoreGraph(env.store, ['follows'], [bad.src, bad.dst])).toEqual(modelGraphLines(applyLww([bad])));
  });
});

/** The sum of the LAG column of `kafka-consumer-groups --describe` for `topic`. */
function describedLag(table: string, topic: string): number {
  const rows = table.split('\n').map((l) => l.trim().split(/\s+/));
  const header = rows.find((r) => r.includes('LAG'));
  if (!header) throw new Error(`no LAG column in:\n${table}`);
  const [topicCol, lagCol] = [header.indexOf('TOPIC'), header.indexOf('LAG')];
  return rows.filter((r) => r[topicCol] === topic).reduce((n, r) => n + Number(r[lagCol]), 0);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
