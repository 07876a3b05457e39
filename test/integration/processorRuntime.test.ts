import type { KafkaProducer } from '../../streams/kafka/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownSchemas, type EdgeMutation } from '../../schemas/index.ts';
import type { TwoLevelMapStore } from '../../sinks/store/index.ts';
import { createEdgeProducer } from '../../streams/producer/index.ts';
import { createProcessorRuntime, HEADERS, type Runner } from '../../streams/runtime/index.ts';
import { encodeWireFrame, subjectFor } from '../../streams/serde/index.ts';
import { consumeMessages } from '../support/consumeMessages.ts';
import { uniqueName } from '../support/uniqueName.ts';
import { caughtUp, committedOffsets, createRuntimeFixture, linkProcessor, readTopic, recordCount, waitFor, type RuntimeFixture } from './runtimeFixture.ts';

// Real Kafka + registry + Cassandra (sinks/cassandra); the processor is the small linkProcessor of runtimeFixture.

const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));

/** it_out[src] as dst → mutation id. */
async function outLinks(store: TwoLevelMapStore, src: string): Promise<Map<string, string>> {
  const page = await store.namespace('it_out').slice(src, { limit: 5_000 });
  return new Map(page.cells.map((c) => [text(c.key) as string, text(c.value) as string]));
}

describe('processor runtime on real Kafka and Cassandra', () => {
  let f: RuntimeFixture;
  let store: TwoLevelMapStore;
  let raw: KafkaProducer;
  const runners: Runner[] = [];

  const runtimeFor = (processor: ReturnType<typeof linkProcessor>, s: TwoLevelMapStore = store) => {
    const runner = createProcessorRuntime({
      kafka: f.kafka,
      serde: f.serde,
      store: s,
      processor,
      schema: knownSchemas.EdgeMutation,
      validate: f.validate,
      config: f.config,
      logger: f.logger,
      tuning: { maxRecordsPerChunk: 100, progressIntervalMs: 1_000 },
    });
    runners.push(runner);
    return runner;
  };

  beforeAll(async () => {
    f = await createRuntimeFixture('runtime');
    store = await f.openStore();
    raw = f.kafka.producer();
    await raw.connect();
  });

  afterAll(async () => {
    for (const r of runners) await r.stop().catch(() => {});
    await raw?.disconnect();
    await f?.teardown();
  });

  it('writes every event to Cassandra, commits the log end, leaves the group on stop, and a restart re-processes nothing', async () => {
    const producer = createEdgeProducer({ kafka: f.kafka, serde: f.serde, config: f.config });
    const first = await Promise.all(
      Array.from({ length: 300 }, (_, i) => producer.addEdge({ type: 'follows', src: `v${i % 10}`, dst: `d${i}` })).concat([producer.flush().then(() => ({ mutationId: '', eventTime: 0n, topic: '', partition: -1, offset: '-1' }))]),
    );
    const processor = linkProcessor();
    const runtime = runtimeFor(processor);
    await runtime.start();
    await waitFor('the runtime to commit the log end', () => caughtUp(f.admin, runtime.groupId, f.topics.input));

    for (let v = 0; v < 10; v++) {
      const links = await outLinks(store, `v${v}`);
      expect(links.size).toBe(30);
    }
    const byDst = new Map(first.slice(0, 300).map((s, i) => [`d${i}`, s.mutationId]));
    expect((await outLinks(store, 'v3')).get('d13')).toBe(byDst.get('d13'));
    expect((await store.namespace('it_dirty').slice('shard-0', { limit: 100 })).cells).toHaveLength(10);
    expect(runtime.metrics()).toMatchObject({ records: 300, done: 300, sentToRepair: 0 });

    await runtime.stop();
    await expect(runtime.done).resolves.toBeUndefined();
    expect(await f.admin.describeGroup(runtime.groupId)).toMatchObject({ state: 'Empty', members: [] });

    const later = await Promise.all([...Array.from({ length: 20 }, (_, i) => producer.addEdge({ type: 'follows', src: 'w', dst: `e${i}` }))]);
    await producer.close();
    const again = linkProcessor();
    const restarted = runtimeFor(again);
    await restarted.start();
    await waitFor('the restarted runtime to catch up', () => caughtUp(f.admin, restarted.groupId, f.topics.input));
    expect(again.processed.sort()).toEqual(later.map((s) => s.mutationId).sort());
    await restarted.stop();
  });

  it('dead-letters a bad-input corpus with reasons, processes every valid event in between, and keeps running', async () => {
    const input = f.topics.input;
    const subject = subjectFor(input, knownSchemas.EdgeMutation);
    const now = BigInt(Date.now()) * 1000n;
    const event = (over: Partial<EdgeMutation>): EdgeMutation => ({
      mutation_id: uniqueName('m'),
      op: 'ADD_EDGE',
      edge_type: 'follows',
      src: 'corpus',
      dst: 'x',
      event_time: now,
      properties: {},
      property_keys: [],
      ...over,
    });
    const valid = (i: number) => event({ dst: `ok${i}`, mutation_id: `valid-${i}` });
    const good = await f.serde.encode(subject, valid(0));
    const corpus: { key: string; value: Buffer | null; expect: [string, string | undefined] | 'valid' }[] = [
      { key: 'valid-0', value: good, expect: 'valid' },
      { key: 'garbage', value: Buffer.from('{"src":"json, not avro"}'), expect: ['undecodable', undefined] },
      { key: 'bad-magic', value: Buffer.concat([Buffer.from([1]), good.subarray(1)]), expect: ['undecodable', undefined] },
      { key: 'valid-1', value: await f.serde.encode(subject, valid(1)), expect: 'valid' },
      { key: 'unknown-schema', value: encodeWireFrame(0x7ffffff0, good.subarray(5)), expect: ['undecodable', undefined] },
      { key: 'truncated', value: good.subarray(0, good.length - 4), expect: ['undecodable', undefined] },
      { key: 'null', value: null, expect: ['undecodable', undefined] },
      { key: 'valid-2', value: await f.serde.encode(subject, valid(2)), expect: 'valid' },
      { key: 'empty-src', value: await f.serde.encode(subject, event({ src: '' })), expect: ['invalid', 'src'] },
      { key: 'unknown-type', value: await f.serde.encode(subject, event({ edge_type: 'hates' })), expect: ['invalid', 'edge_type'] },
      { key: 'future', value: await f.serde.encode(subject, event({ event_time: now + 3_600_000_000n })), expect: ['invalid', 'event_time'] },
      { key: 'props-on-remove', value: await f.serde.encode(subject, event({ op: 'REMOVE_EDGE', properties: { a: 1n } })), expect: ['invalid', 'properties'] },
      { key: 'valid-3', value: await f.serde.encode(subject, valid(3)), expect: 'valid' },
    ];
    // One partition keeps the interleaving: bad records sit between valid ones in the same batch.
    await raw.send({ topic: input, messages: corpus.map((c) => ({ key: c.key, value: c.value, partition: 0 })) });
    const { high: baseOffset } = (await f.admin.fetchTopicOffsets(input)).find((p) => p.partition === 0) as { high: string };

    const runtime = runtimeFor(linkProcessor());
    await runtime.start();
    await waitFor('the runtime to commit the corpus', () => caughtUp(f.admin, runtime.groupId, input));

    const bad = corpus.filter((c) => c.expect !== 'valid');
    const dlq = await consumeMessages(f.kafka, f.topics.dlq, bad.length, { timeoutMs: 30_000 });
    const seen = dlq.map((m) => ({
      key: m.key?.toString(),
      reason: m.headers?.[HEADERS.dlqReason]?.toString(),
      field: m.headers?.[HEADERS.dlqField]?.toString(),
      value: m.value,
      topic: m.headers?.[HEADERS.dlqSourceTopic]?.toString(),
      partition: m.headers?.[HEADERS.dlqSourcePartition]?.toString(),
      offset: m.headers?.[HEADERS.dlqSourceOffset]?.toString(),
    }));
    expect(seen.map((s) => [s.key, s.reason, s.field])).toEqual(bad.map((c) => [c.key, ...(c.expect as [string, string | undefined])]));
    const firstOffset = BigInt(baseOffset) - BigInt(corpus.length);
    for (const s of seen) {
      const sent = corpus.find((c) => c.key === s.key);
      expect(s.value).toEqual(sent?.value ?? null);
      expect([s.topic, s.partition]).toEqual([input, '0']);
      expect(BigInt(s.offset as string) - firstOffset).toBe(BigInt(corpus.indexOf(sent as (typeof corpus)[number])));
    }
    const written = await outLinks(store, 'corpus');
    expect([...written.keys()].sort()).toEqual(['ok0', 'ok1', 'ok2', 'ok3']);
    expect(runtime.metrics()).toMatchObject({ deadLettered: { undecodable: 5, invalid: 4 } });
    await runtime.stop();
    await expect(runtime.done).resolves.toBeUndefined();
  });

  it('stop() in the middle of a backlog finishes and commits the chunk in flight, leaves the group, and a restart takes over from there', async () => {
    const input = f.topics.input;
    const producer = createEdgeProducer({ kafka: f.kafka, serde: f.serde, config: f.config, maxBatchMessages: 1_000 });
    await Promise.all([...Array.from({ length: 6_000 }, (_, i) => producer.addEdge({ type: 'follows', src: `stop${i % 20}`, dst: `s${i}` })), producer.flush()]);
    await producer.close();
    const groupId = `${f.config.topics.prefix}it-links`;
    const before = await committedOffsets(f.admin, groupId, input);

    const first = linkProcessor();
    const runtime = runtimeFor(first);
    await runtime.start();
    await waitFor('a first commit of the backlog', async () => [...(await committedOffsets(f.admin, groupId, input))].some(([p, o]) => o > (before.get(p) ?? -1n)), { everyMs: 20 });
    await runtime.stop(); // what the CLI does on SIGTERM
    await expect(runtime.done).resolves.toBeUndefined();
    expect(await f.admin.describeGroup(groupId)).toMatchObject({ state: 'Empty', members: [] });
    const committed = await committedOffsets(f.admin, groupId, input);
    expect(await caughtUp(f.admin, groupId, input)).toBe(false); // it really stopped mid-backlog

    // Everything the first runtime committed has landed, and it committed everything it settled.
    let landedAndCommitted = 0;
    const links = new Map<string, Map<string, string>>();
    const firstProcessed = new Set(first.processed);
    for (const r of await readTopic(f.kafka, input, await recordCount(f.admin, input))) {
      if (r.value === null || !r.key?.toString().startsWith('stop')) continue;
      if (r.offset < (before.get(r.partition) ?? 0n)) continue;
      const e = (await f.serde.decode(r.value, knownSchemas.EdgeMutation)).value;
      if (r.offset < (committed.get(r.partition) ?? 0n)) {
        if (!links.has(e.src)) links.set(e.src, await outLinks(store, e.src));
        expect(links.get(e.src)?.get(e.dst)).toBe(e.mutation_id);
        expect(firstProcessed.has(e.mutation_id)).toBe(true);
        landedAndCommitted++;
      }
    }
    expect(landedAndCommitted).toBeGreaterThan(0);
    expect(firstProcessed.size).toBe(landedAndCommitted); // no chunk was processed and left uncommitted

    const second = linkProcessor();
    const restarted = runtimeFor(second);
    await restarted.start();
    await waitFor('the restarted runtime to finish the backlog', () => caughtUp(f.admin, groupId, input), { timeoutMs: 90_000 });
    expect(second.processed.filter((id) => firstProcessed.has(id))).toEqual([]); // nothing committed is processed twice
    expect(firstProcessed.size + second.processed.length).toBe(6_000);
    await restarted.stop();
  });

  it('never commits past an event whose writes did not land: the store closes mid-stream, the runtime stops, a fresh one finishes the job', async () => {
    const input = f.topics.input;
    const before = await committedOffsets(f.admin, `${f.config.topics.prefix}it-links`, input);
    const producer = createEdgeProducer({ kafka: f.kafka, serde: f.serde, config: f.config, maxBatchMessages: 1_000 });
    const sent = await Promise.all(Array.from({ length: 6_000 }, (_, i) => producer.addEdge({ type: 'follows', src: `crash${i % 20}`, dst: `c${i}` })).concat([producer.flush().then(() => ({ mutationId: '', eventTime: 0n, topic: '', partition: -1, offset: '-1' }))]));
    await producer.close();

    const doomed = await f.openStore();
    const runtime = runtimeFor(linkProcessor(), doomed);
    await runtime.start();
    await waitFor('a first commit past the earlier tests', async () => {
      const now = await committedOffsets(f.admin, runtime.groupId, input);
      return [...now].some(([p, o]) => o > (before.get(p) ?? -1n));
    }, { everyMs: 20 });
    await doomed.close(); // writes now fail with StoreError 'closed': a deployment error, never retried
    await expect(runtime.done).rejects.toThrow(/closed/);

    // Every event below its partition's committed offset has its writes in Cassandra.
    const committed = await committedOffsets(f.admin, runtime.groupId, input);
    const mine = new Set(sent.slice(0, 6_000).map((s) => s.mutationId));
    const links = new Map<string, Map<string, string>>();
    let committedAndLanded = 0;
    let notCommitted = 0;
    for (const r of await readTopic(f.kafka, input, await recordCount(f.admin, input))) {
      if (r.value === null || !r.key?.toString().startsWith('crash')) continue; // earlier tests' records, bad corpus included
      const e = (await f.serde.decode(r.value, knownSchemas.EdgeMutation)).value;
      if (!mine.has(e.mutation_id)) continue;
      if (r.offset >= (committed.get(r.partition) ?? 0n)) {
        notCommitted++;
        continue;
      }
      if (!links.has(e.src)) links.set(e.src, await outLinks(store, e.src));
      expect(links.get(e.src)?.get(e.dst), `${e.mutation_id} at ${r.partition}@${r.offset} is committed`).toBe(e.mutation_id);
      committedAndLanded++;
    }
    expect(committedAndLanded).toBeGreaterThan(0);
    expect(notCommitted).toBeGreaterThan(0); // the store really went away mid-stream

    const fresh = await f.openStore();
    const rescue = runtimeFor(linkProcessor(), fresh);
    await rescue.start();
    await waitFor('the fresh runtime to finish', () => caughtUp(f.admin, rescue.groupId, input), { timeoutMs: 90_000 });
    let total = 0;
    for (let s = 0; s < 20; s++) total += (await outLinks(fresh, `crash${s}`)).size;
    expect(total).toBe(6_000);
    await rescue.stop();
  });
});
