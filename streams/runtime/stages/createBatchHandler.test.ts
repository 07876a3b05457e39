import { KafkaJSError } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../../sinks/store/index.ts';
import { EncodeError } from '../../serde/index.ts';
import { HEADERS, headerString } from '../failures/headers.ts';
import { PipelineError } from '../failures/PipelineError.ts';
import { fakePayload, message } from '../testing/fakeKafka.ts';
import { pipelineHarness } from '../testing/pipelineHarness.ts';
import { testEventBytes } from '../testing/testProcessor.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));
const ev = (offset: number, fields: Parameters<typeof testEventBytes>[0]) => message(offset, testEventBytes(fields), { key: fields.src ?? 'a' });
const header = (r: { headers?: Record<string, unknown> } | undefined, name: string) => headerString(r?.headers as never, name);

describe('the batch handler (runtime pipeline on sinks/memory)', () => {
  it('commits a chunk only after its writes, follow-ups and emits landed', async () => {
    const h = pipelineHarness();
    const order: string[] = [];
    const mutateMany = h.store.mutateMany.bind(h.store);
    h.store.mutateMany = async (ms) => (order.push(`write:${ms.map((m) => m.namespace).join(',')}`), mutateMany(ms));
    const publish = h.publisher.publish.bind(h.publisher);
    h.publisher.publish = async (rs) => (order.push('publish'), publish(rs));
    const { payload, log } = fakePayload('p.in', 0, [ev(0, { mutation_id: 'm0', dst: 'b' }), ev(1, { mutation_id: 'm1', dst: 'c', emit: true })]);
    const commit = payload.commitOffsetsIfNecessary;
    payload.commitOffsetsIfNecessary = async (o) => (order.push('commit'), commit(o));

    await h.handler(payload);

    expect(order).toEqual(['write:t_out,t_in,t_out,t_in', 'write:t_dirty,t_dirty', 'publish', 'commit']);
    expect(log.resolved).toEqual(['1']);
    expect(log.committed).toEqual(['p.in:0@2']);
    expect(text((await h.memory.namespace('t_out').get('a', utf8('c')))?.value)).toBe('m1');
    expect(text((await h.memory.namespace('t_in').get('c', utf8('a')))?.value)).toBe('m1');
    // follow-ups carry the wall clock read after the writes landed, not the event time
    expect((await h.memory.namespace('t_dirty').get('shard-0', utf8('a')))?.writeTime).toBe(h.clock.nowMicros());
    expect(h.published).toEqual([{ topic: 'p.edge-mutations', key: 'a', value: expect.any(Buffer) }]);
    expect(h.metrics.snapshot()).toMatchObject({ records: 2, chunks: 1, done: 2, emitted: 1 });
  });

  it('dead-letters garbage, null values, invalid events and processor throws with their reasons; every valid event is processed', async () => {
    const h = pipelineHarness();
    const { payload, log } = fakePayload('p.in', 3, [
      message(10, Buffer.from([0xff, 0x00, 0x01]), { key: 'g' }),
      ev(11, { mutation_id: 'ok1', dst: 'x' }),
      message(12, null, { key: 'n' }),
      ev(13, { mutation_id: 'bad', src: '' }),
      ev(14, { mutation_id: 'poison', op: 'throw' }),
      ev(15, { mutation_id: 'ok2', dst: 'y' }),
    ]);
    await h.handler(payload);

    const dlq = h.published.filter((r) => r.topic === 'p.in.dlq');
    expect(dlq.map((r) => [header(r, HEADERS.dlqSourceOffset), header(r, HEADERS.dlqReason), header(r, HEADERS.dlqField)])).toEqual([
      ['10', 'undecodable', undefined],
      ['12', 'undecodable', undefined],
      ['13', 'invalid', 'src'],
      ['14', 'processor_error', undefined],
    ]);
    expect(dlq[0]).toMatchObject({ key: Buffer.from('g'), value: Buffer.from([0xff, 0x00, 0x01]) });
    expect(header(dlq[2], HEADERS.dlqError)).toBe('must not be empty');
    expect(header(dlq[3], HEADERS.dlqError)).toContain('poison poison');
    expect(header(dlq[0], HEADERS.dlqSourceTopic)).toBe('p.in');
    expect(header(dlq[0], HEADERS.dlqSourcePartition)).toBe('3');
    expect(text((await h.memory.namespace('t_out').get('a', utf8('x')))?.value)).toBe('ok1');
    expect(text((await h.memory.namespace('t_out').get('a', utf8('y')))?.value)).toBe('ok2');
    expect(log.committed).toEqual(['p.in:3@16']);
    expect(h.metrics.snapshot()).toMatchObject({ records: 6, done: 2, deadLettered: { undecodable: 2, invalid: 1, processor_error: 1 } });
  });

  it('sends only the event whose write keeps failing to the repair topic, with attempt, first failure, namespaces and error', async () => {
    const h = pipelineHarness();
    h.failWrites((m) => (m.namespace === 't_in' && m.id === 'bad' ? 'timeout' : undefined));
    const original = { traceparent: Buffer.from('t1') };
    const { payload, log } = fakePayload('p.in', 0, [ev(0, { mutation_id: 'good', dst: 'ok' }), message(1, testEventBytes({ mutation_id: 'm-bad', dst: 'bad' }), { key: 'a', headers: original })]);
    await h.handler(payload);

    expect(h.published).toHaveLength(1);
    const [repair] = h.published;
    expect(repair).toMatchObject({ topic: 'p.in.repair', key: Buffer.from('a'), value: testEventBytes({ mutation_id: 'm-bad', dst: 'bad' }), timestamp: String(h.clock.nowMs()) });
    expect(repair?.headers).toMatchObject({ traceparent: Buffer.from('t1') });
    expect(header(repair, HEADERS.attempt)).toBe('1');
    expect(header(repair, HEADERS.firstFailureAt)).toBe(String(h.clock.nowMs()));
    expect(header(repair, HEADERS.failedNamespaces)).toBe('t_in');
    expect(header(repair, HEADERS.error)).toContain('StoreError(timeout)');
    expect(header(repair, HEADERS.sourceOffset)).toBe('1');
    // the good event landed and the other half of the bad one too (writes are idempotent, repair redoes all of it)
    expect(await h.memory.namespace('t_out').get('a', utf8('ok'))).toBeDefined();
    expect(await h.memory.namespace('t_out').get('a', utf8('bad'))).toBeDefined();
    // the failed event's follow-up was not written: its repair will write it
    expect(h.calls.at(-1)?.map((m) => m.namespace)).toEqual(['t_dirty']);
    expect(h.calls.at(-1)).toHaveLength(1);
    expect(log.committed).toEqual(['p.in:0@2']);
    expect(h.metrics.snapshot()).toMatchObject({ done: 1, sentToRepair: 1 });
  });

  it('leaves the chunk unresolved and uncommitted when the hand-off fails, so kafkajs re-delivers it', async () => {
    const h = pipelineHarness();
    const { payload, log } = fakePayload('p.in', 0, [ev(0, { mutation_id: 'bad', src: '' }), ev(1, { mutation_id: 'ok' })]);
    h.failNext(new KafkaJSError('broker down'));

    const thrown = await h.handler(payload).catch((e: unknown) => e);
    expect(PipelineError.is(thrown) && thrown.code).toBe('BATCH_RETRY');
    expect((thrown as PipelineError).retriable).toBe(true);
    expect(log.resolved).toEqual([]);
    expect(log.committed).toEqual([]);

    await h.handler(payload); // the re-delivery
    expect(h.published.map((r) => r.topic)).toEqual(['p.in.dlq']);
    expect(log.committed).toEqual(['p.in:0@2']);
    expect(h.metrics.snapshot()).toMatchObject({ records: 2, batchRetries: 1 });
  });

  it('retries the chunk and dead-letters nothing when the schema registry is down', async () => {
    const h = pipelineHarness();
    const { payload, log } = fakePayload('p.in', 0, [ev(0, { mutation_id: 'ok' }), message(1, Buffer.from('REGISTRY_DOWN'))]);
    const thrown = await h.handler(payload).catch((e: unknown) => e);
    expect(PipelineError.is(thrown) && thrown.code).toBe('BATCH_RETRY');
    expect(h.published).toEqual([]);
    expect(h.calls).toEqual([]);
    expect(log.committed).toEqual([]);
  });

  it('throws FATAL and commits nothing on a deployment error, without dead-lettering anything', async () => {
    const h = pipelineHarness();
    h.failWholeCalls(() => new StoreError('unknown_namespace', "namespace 't_out' is not configured"));
    const { payload, log } = fakePayload('p.in', 0, [ev(0, { mutation_id: 'ok' })]);
    const thrown = await h.handler(payload).catch((e: unknown) => e);
    expect(PipelineError.is(thrown) && thrown.code).toBe('FATAL');
    expect((thrown as PipelineError).retriable).toBe(false);
    expect(h.published).toEqual([]);
    expect(log.committed).toEqual([]);
    expect(h.calls).toHaveLength(1);
  });

  it('finishes and commits the chunk in flight, then stops when the consumer is stopping', async () => {
    const h = pipelineHarness({ maxRecordsPerChunk: 2 });
    let running = true;
    const { payload, log } = fakePayload('p.in', 0, [0, 1, 2, 3, 4].map((i) => ev(i, { mutation_id: `m${i}`, dst: `d${i}` })), { running: () => running });
    const commit = payload.commitOffsetsIfNecessary;
    payload.commitOffsetsIfNecessary = async (o) => {
      await commit(o);
      running = false; // SIGTERM arrives during the first chunk
    };
    await h.handler(payload);
    expect(log.committed).toEqual(['p.in:0@2']);
    expect(await h.memory.namespace('t_out').get('a', utf8('d2'))).toBeUndefined();
  });

  it('reads each distinct cell once per chunk; events see the state from before the chunk', async () => {
    const h = pipelineHarness();
    await h.memory.mutateMany([{ namespace: 't_out', id: 'a', writeTime: 1n, deletions: [], additions: [{ key: utf8('b'), value: utf8('old') }] }]);
    let reads = 0;
    h.failReads(() => void reads++ as undefined);
    const { payload } = fakePayload('p.in', 0, [ev(0, { mutation_id: 'm0', time: '5' }), ev(1, { mutation_id: 'm1', time: '6' }), ev(2, { mutation_id: 'm2', dst: 'z' })]);
    await h.handler(payload);
    expect(reads).toBe(1); // t_out[a][b] once and t_out[a][z]: one getKeys of partition a
    expect(h.seen.reads).toEqual(['old', 'old', undefined]);
  });

  it('sends events whose point read keeps failing to repair, naming the namespace', async () => {
    const h = pipelineHarness();
    h.failReads(() => 'unavailable');
    const { payload, log } = fakePayload('p.in', 0, [ev(0, { mutation_id: 'm0' })]);
    await h.handler(payload);
    expect(h.published.map((r) => [r.topic, header(r, HEADERS.failedNamespaces)])).toEqual([['p.in.repair', 't_out']]);
    expect(h.calls).toEqual([]);
    expect(log.committed).toEqual(['p.in:0@1']);
  });

  it('dead-letters an event whose emit does not match its schema', async () => {
    const h = pipelineHarness();
    h.setEncodeEmit(async () => {
      throw new EncodeError('INVALID_VALUE', 'value does not match io.edgestream.EdgeMutation at: op');
    });
    const { payload } = fakePayload('p.in', 0, [ev(0, { mutation_id: 'm0', emit: true }), ev(1, { mutation_id: 'm1', dst: 'q' })]);
    await h.handler(payload);
    expect(h.published.map((r) => [r.topic, header(r, HEADERS.dlqReason)])).toEqual([['p.in.dlq', 'emit_rejected']]);
  });

  it('sends events to repair when their emits cannot be published within the budget', async () => {
    const h = pipelineHarness();
    h.failNext(...Array.from({ length: 10 }, () => new KafkaJSError('not enough replicas', { retriable: true })));
    const { payload, log } = fakePayload('p.in', 0, [ev(0, { mutation_id: 'm0', emit: true })]);
    await h.handler(payload).catch(() => {});
    // 4 emit attempts within 1 s (100+200+400), then the repair hand-off is the 5th publish, which also fails
    expect(log.committed).toEqual([]);
    h.failNext();
    await h.handler(payload);
    expect(h.published.map((r) => r.topic)).toEqual(['p.edge-mutations']);
    expect(log.committed).toEqual(['p.in:0@1']);
  });

  it('writes a partition clear at its own time, so it beats another event’s addition at that time in the same chunk', async () => {
    const h = pipelineHarness();
    await h.memory.mutateMany([{ namespace: 't_in', id: 'b', writeTime: 3n, deletions: [], additions: [{ key: utf8('old'), value: utf8('x') }] }]);
    const { payload } = fakePayload('p.in', 0, [
      ev(0, { mutation_id: 'adds-at-10', src: 'a', dst: 'b', time: '10' }),
      ev(1, { mutation_id: 'clears-at-10', op: 'clear', dst: 'b', time: '10' }),
      ev(2, { mutation_id: 'adds-at-11', src: 'c', dst: 'b', time: '11' }),
    ]);
    await h.handler(payload);
    const cells = (await h.memory.namespace('t_in').slice('b', { limit: 10 })).cells.map((c) => text(c.key));
    expect(cells).toEqual(['c']); // 'old' (t3) and 'a' (t10, tie lost to the tombstone) are gone; 'c' (t11) survives
  });

  it('puts topic, partition, offset and mutation_id on every per-event log line', async () => {
    const h = pipelineHarness();
    h.failWrites((m) => (m.namespace === 't_in' ? 'timeout' : undefined));
    const { payload } = fakePayload('p.in', 7, [ev(40, { mutation_id: 'bad', src: '' }), ev(41, { mutation_id: 'm41' })]);
    await h.handler(payload);
    const perEvent = h.lines.filter((l) => l['msg'] === 'invalid event dead-lettered' || String(l['msg']).startsWith('write failed'));
    expect(perEvent.map((l) => [l['topic'], l['partition'], l['offset'], l['mutation_id']])).toEqual([
      ['p.in', 7, '40', 'bad'],
      ['p.in', 7, '41', 'm41'],
    ]);
  });
});

describe('the batch handler and kafkajs errors', () => {
  it('passes a heartbeat failure during a retry back-off through unchanged (kafkajs re-joins on a rebalance), committing nothing', async () => {
    const h = pipelineHarness();
    h.failWrites(() => 'timeout');
    const { payload, log } = fakePayload('p.in', 0, [ev(0, { mutation_id: 'm0' })]);
    const rebalance = Object.assign(new Error('The group is rebalancing, so a rejoin is needed'), { type: 'REBALANCE_IN_PROGRESS', retriable: true });
    payload.heartbeat = async () => {
      throw rebalance;
    };
    expect(await h.handler(payload).catch((e: unknown) => e)).toBe(rebalance);
    expect(log.committed).toEqual([]);
  });
});
