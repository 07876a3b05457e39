import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownSchemas, type EdgeMutation } from '../../schemas/index.ts';
import { createEdgeProducer, ProducerError, type EdgeProducer } from '../../streams/producer/index.ts';
import { createRuntimeFixture, readTopic, recordCount, type RuntimeFixture } from './runtimeFixture.ts';

// Real Kafka + registry: what the SDK sends is what a consumer decodes.

describe('EdgeProducer on real Kafka and schema registry', () => {
  let f: RuntimeFixture;
  let producer: EdgeProducer;

  beforeAll(async () => {
    f = await createRuntimeFixture('producer');
    producer = createEdgeProducer({ kafka: f.kafka, serde: f.serde, config: f.config });
  });

  afterAll(async () => {
    await producer?.close();
    await f?.teardown();
  });

  it('sends every op as an EdgeMutation keyed by src, with ids and strictly increasing event times filled in', async () => {
    const givenTime = BigInt(Date.now() - 60_000) * 1000n + 1n; // a minute ago: within the resurrection horizon
    const calls = [
      producer.addEdge({ type: 'follows', src: 'alice', dst: 'bob', properties: { weight: 9_007_199_254_740_993n, score: 0.5, note: 'hi', raw: Buffer.from([1, 2]), muted: null, close: true } }),
      producer.setProperties({ type: 'follows', src: 'alice', dst: 'bob', properties: { note: 'updated' } }),
      producer.removeProperties({ type: 'follows', src: 'alice', dst: 'bob', keys: ['note'] }),
      producer.removeProperties({ type: 'follows', src: 'alice', dst: 'bob', keys: [] }),
      producer.removeEdge({ type: 'likes', src: 'carol', dst: 'bob', mutationId: 'given-id', eventTime: givenTime }),
      producer.removeNode({ vertex: 'alice' }),
    ];
    const sent = await Promise.all([...calls, producer.flush()]);
    const records = await readTopic(f.kafka, f.topics.input, 6);
    const decoded = await Promise.all(
      records.map(async (r) => ({ record: r, event: (await f.serde.decode(r.value as Buffer, knownSchemas.EdgeMutation)).value as EdgeMutation })),
    );
    const byId = new Map(decoded.map((d) => [d.event.mutation_id, d]));
    const ids = sent.slice(0, 6).map((s) => (s as { mutationId: string }).mutationId);
    expect(ids[4]).toBe('given-id');
    expect(new Set(ids).size).toBe(6);

    const [add, set, removeKeys, clear, removeEdge, removeNode] = ids.map((id) => byId.get(id) as (typeof decoded)[number]);
    expect(add?.event).toMatchObject({ op: 'ADD_EDGE', edge_type: 'follows', src: 'alice', dst: 'bob' });
    expect(add?.event.properties).toEqual({ weight: 9_007_199_254_740_993n, score: 0.5, note: 'hi', raw: Buffer.from([1, 2]), muted: null, close: true });
    expect(set?.event).toMatchObject({ op: 'SET_PROPERTIES', properties: { note: 'updated' } });
    expect(removeKeys?.event).toMatchObject({ op: 'REMOVE_PROPERTIES', property_keys: ['note'] });
    expect(clear?.event).toMatchObject({ op: 'REMOVE_PROPERTIES', property_keys: [] });
    expect(removeEdge?.event).toMatchObject({ op: 'REMOVE_EDGE', edge_type: 'likes', src: 'carol', event_time: givenTime });
    expect(removeNode?.event).toMatchObject({ op: 'REMOVE_NODE', edge_type: '', src: 'alice', dst: '' });

    // keyed by src: alice's five mutations share a partition, in call order, with increasing event times
    for (const d of decoded) expect(d.record.key?.toString()).toBe(d.event.src);
    const alice = [add, set, removeKeys, clear, removeNode];
    expect(new Set(alice.map((d) => d?.record.partition)).size).toBe(1);
    const offsets = alice.map((d) => d?.record.offset as bigint);
    expect([...offsets].sort((a, b) => (a < b ? -1 : 1))).toEqual(offsets);
    const times = alice.map((d) => d?.event.event_time as bigint);
    for (let i = 1; i < times.length; i++) expect(times[i] as bigint).toBeGreaterThan(times[i - 1] as bigint);
  });

  it('sends thousands of concurrent calls in batches and acknowledges each one', async () => {
    const before = await recordCount(f.admin, f.topics.input);
    const started = Date.now();
    const acks = await Promise.all(Array.from({ length: 5_000 }, (_, i) => producer.addEdge({ type: 'likes', src: `u${i % 97}`, dst: `p${i}` })));
    await producer.flush();
    const elapsed = Date.now() - started;
    expect(new Set(acks.map((a) => a.mutationId)).size).toBe(5_000);
    expect((await recordCount(f.admin, f.topics.input)) - before).toBe(5_000);
    console.log(`[edgeProducer] 5000 addEdge calls acknowledged in ${elapsed} ms`);
  });

  it('resolves every call with the partition and offset Kafka appended its record at (batched, many per partition)', async () => {
    const acks = await Promise.all(Array.from({ length: 1_200 }, (_, i) => producer.addEdge({ type: 'likes', src: `at${i % 13}`, dst: `q${i}` })));
    await producer.flush();
    const total = await recordCount(f.admin, f.topics.input);
    const byCoordinates = new Map((await readTopic(f.kafka, f.topics.input, total)).map((r) => [`${r.partition}:${r.offset}`, r]));
    const misplaced = acks.filter((a) => {
      const r = byCoordinates.get(`${a.partition}:${a.offset}`);
      return a.topic !== f.topics.input || !r || !r.value || !r.value.includes(Buffer.from(a.mutationId));
    });
    expect(misplaced).toEqual([]);
    expect(new Set(acks.map((a) => `${a.partition}:${a.offset}`)).size).toBe(1_200);
  });

  it('rejects a bad call with INVALID_ARGUMENT naming the argument and sends nothing', async () => {
    const before = await recordCount(f.admin, f.topics.input);
    const error = await producer.addEdge({ type: 'unknown_type', src: 'a', dst: 'b' }).catch((e: unknown) => e);
    expect(ProducerError.is(error) && error.code).toBe('INVALID_ARGUMENT');
    expect((error as ProducerError).argument).toBe('type');
    await producer.flush();
    expect(await recordCount(f.admin, f.topics.input)).toBe(before);
  });
});
