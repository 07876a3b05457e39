import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KafkaProducer } from '../../streams/kafka/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownSchemas, type EdgeMutation } from '../../schemas/index.ts';
import { decodeLinkValue, encodeVertexKey } from '../../sinks/namespaces/index.ts';
import { endpointsToEnv } from '../../stack/endpoints.ts';
import { HEADERS } from '../../streams/runtime/index.ts';
import { encodeWireFrame, subjectFor } from '../../streams/serde/index.ts';
import { avroString, hostileEdgeMutations, varint } from '../../streams/serde/testHelpers/hostileBodies.ts';
import { edgePipelineGroups } from '../../streams/topology/createEdgePipeline.ts';
import { dlqTopicOf, topicName } from '../../streams/topics/index.ts';
import { consumeMessages } from '../support/consumeMessages.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from '../support/edgestreamEnv.ts';
import { killAll, startProcessorProcess, type ProcessorProcess } from '../support/processorProcess.ts';
import { caughtUp, waitFor } from './runtimeFixture.ts';

/**
 * Issue 11 item 1: correctly framed records whose Avro body declares an
 * enormous map/array count or string length. `edgestream run fanout cascade
 * plan` runs as a child process (a spinning decode blocks its event loop, so
 * it must not be this test's); every hostile record sits on the same
 * partition as a valid event behind it. Every hostile record must reach its
 * topic's DLQ with a reason naming the bad field, every valid event must be
 * applied, and the fan-out, the cascade and the planner must all commit the
 * log end. Bounded waits: a hung pipeline fails as a timeout.
 */
const PARTITIONS = 3;
/** A small record limit (the config the child reads), so an oversized record fits under the broker's own limit. */
const MAX_RECORD_BYTES = 4_096;

describe('hostile Avro bodies on real Kafka', () => {
  let env: EdgestreamEnv;
  let raw: KafkaProducer;
  let tmp: string;
  const processes = new Set<ProcessorProcess>();

  beforeAll(async () => {
    env = await createEdgestreamEnv({ name: 'hostile', partitions: PARTITIONS, limits: { maxPropertyBagBytes: 2_048, maxRecordBytes: MAX_RECORD_BYTES } });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'edgestream-hostile-'));
    raw = env.kafka.producer();
    await raw.connect();
  });

  afterAll(async () => {
    await killAll(processes);
    await raw?.disconnect();
    await env?.teardown();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('dead-letters every hostile record with its reason and applies the valid event behind each; fan-out, cascade and planner move on', { timeout: 240_000 }, async () => {
    const input = env.topics.input;
    const wideTopic = topicName(env.config.topics.prefix, 'wide-partitions');
    const now = BigInt(Date.now()) * 1000n;
    const mutationId = await idOf(env, input);
    const wideId = await idOf(env, wideTopic, knownSchemas.WidePartitionDetected);
    const edge = (over: Partial<EdgeMutation>): EdgeMutation => ({
      mutation_id: `valid-${over.src}-${over.dst}-${over.op ?? 'ADD_EDGE'}`,
      op: 'ADD_EDGE',
      edge_type: 'follows',
      src: 'x',
      dst: 'y',
      event_time: now,
      properties: {},
      property_keys: [],
      ...over,
    });
    const valid = (event: EdgeMutation) => env.serde.encode(mutationId, event);
    const hostile = [
      ...hostileEdgeMutations(now),
      { name: 'too-large', body: Buffer.alloc(MAX_RECORD_BYTES), names: 'limits.maxRecordBytes', code: 'RECORD_TOO_LARGE' },
    ];
    // Partition 0 also carries a REMOVE_NODE behind a hostile record: the cascade must get to it.
    const sent: { partition: number; key: string; value: Buffer; names?: string; code?: string }[] = [{ partition: 0, key: 'doomed', value: await valid(edge({ src: 'doomed', dst: 'z' })) }];
    for (const [i, h] of hostile.entries()) {
      const partition = i % PARTITIONS;
      sent.push({ partition, key: `hostile-${h.name}`, value: encodeWireFrame(mutationId, h.body), names: h.names, code: h.code });
      sent.push({ partition, key: `ok${i}`, value: await valid(edge({ src: `ok${i}`, dst: 'after' })) });
    }
    sent.push({ partition: 0, key: 'doomed', value: await valid(edge({ src: 'doomed', edge_type: '', dst: '', op: 'REMOVE_NODE', event_time: now + 1n })) });
    await raw.send({ topic: input, messages: sent.map((s) => ({ partition: s.partition, key: s.key, value: s.value })) });

    // The planner's input: a string declaring 2^50 bytes, and an 11-byte varint, each before a valid detection.
    const detection = await env.serde.encode(wideId, {
      namespace: 'not_split',
      partition_id: 'p',
      bytes_read: 1n,
      rows_read: 1n,
      rows_returned: 1n,
      detected_at: now,
      immutable: false,
      window_ms: 1n,
    });
    const wideHostile = [
      {
        key: 'wide-namespace-length',
        value: encodeWireFrame(wideId, Buffer.concat([varint(1n << 50n), Buffer.from('x')])),
        error: ['DecodeError(BAD_LENGTH): ', 'at namespace: declares a length of 1125899906842624 bytes, but 1 remain'],
      },
      {
        key: 'wide-overlong-long',
        value: encodeWireFrame(wideId, Buffer.concat([avroString('n'), avroString('p'), Buffer.alloc(11, 0xff), Buffer.from([1])])),
        error: ['DecodeError(BAD_PAYLOAD): ', 'at bytes_read: varint longer than 10 bytes (long)'],
      },
    ];
    await raw.send({
      topic: wideTopic,
      messages: wideHostile.flatMap((h) => [{ partition: 0, key: h.key, value: h.value }, { partition: 0, key: 'valid', value: detection }]),
    });

    const configFile = path.join(tmp, 'edgestream.config.json');
    fs.writeFileSync(configFile, JSON.stringify(env.configInput, null, 2));
    const processor = startProcessorProcess({
      configFile,
      stages: ['fanout', 'cascade', 'plan'],
      env: { ...endpointsToEnv(env.endpoints), LOG_LEVEL: 'info' },
      logPath: path.join(tmp, 'processor.log'),
      registry: processes,
    });
    const group = (stage: string) => edgePipelineGroups(env.config).find((g) => g.stage === stage)?.group as string;
    const moveOn = async (what: string, stage: string, topic: string) => {
      await waitFor(what, () => caughtUp(env.admin, group(stage), topic), { timeoutMs: 60_000 }).catch((e: unknown) => {
        throw new Error(`${(e as Error).message}\nprocessor alive: ${processor.alive()}; its log:\n${processor.tail(15)}`);
      });
    };
    await moveOn('the fan-out to commit past every hostile record', 'fanout', input);
    await moveOn('the cascade to commit past every hostile record', 'cascade', input);
    await moveOn('the planner to commit past every hostile record', 'plan', wideTopic);

    const hostileSent = sent.filter((s) => s.names !== undefined);
    const dlq = await consumeMessages(env.kafka, env.topics.dlq, hostileSent.length, { timeoutMs: 30_000 });
    const reasons = new Map(dlq.map((m) => [m.key?.toString(), { reason: m.headers?.[HEADERS.dlqReason]?.toString(), error: m.headers?.[HEADERS.dlqError]?.toString() ?? '' }]));
    expect([...reasons.keys()].sort()).toEqual(hostileSent.map((s) => s.key).sort());
    for (const s of hostileSent) {
      const got = reasons.get(s.key);
      expect(got?.reason, s.key).toBe('undecodable');
      expect(got?.error.startsWith(`DecodeError(${s.code}): `), got?.error).toBe(true);
      expect(got?.error, s.key).toContain(s.names);
    }
    const wideDlq = await consumeMessages(env.kafka, topicName(env.config.topics.prefix, dlqTopicOf('wide-partitions')), wideHostile.length, { timeoutMs: 30_000 });
    expect(wideDlq.map((m) => [m.key?.toString(), m.headers?.[HEADERS.dlqReason]?.toString()])).toEqual(wideHostile.map((h) => [h.key, 'undecodable']));
    wideDlq.forEach((m, i) => {
      const error = m.headers?.[HEADERS.dlqError]?.toString() ?? '';
      const [prefix = '', names = ''] = wideHostile[i]?.error ?? [];
      expect(error.startsWith(prefix), error).toBe(true);
      expect(error).toContain(names);
    });

    // Every valid event behind a hostile one was applied, and the cascade reached the REMOVE_NODE.
    const link = async (src: string, dst: string) => {
      const cell = await env.store.namespace('follows_out').get(src, encodeVertexKey(dst));
      return cell === undefined ? undefined : decodeLinkValue(cell.value).state;
    };
    for (let i = 0; i < hostile.length; i++) expect(await link(`ok${i}`, 'after'), `ok${i}`).toBe('ACTIVE');
    await waitFor('the cascade to remove doomed→z', async () => (await link('doomed', 'z')) === 'REMOVED', { timeoutMs: 30_000 });

    await processor.kill('SIGTERM');
  });
});

/** The id of the latest schema under the topic's subject (registered by the env). */
async function idOf(env: EdgestreamEnv, topic: string, schema: Parameters<typeof subjectFor>[1] = knownSchemas.EdgeMutation): Promise<number> {
  return env.registry.getLatestSchemaId(subjectFor(topic, schema));
}
