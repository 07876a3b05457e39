import { createKafkajsPort } from '../kafka/kafkajs/index.ts';
import type { KafkaPort, ProducedRecord, ProducerOptions } from '../kafka/index.ts';
import { describe, expect, it } from 'vitest';
import { defaultEdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import type { EdgeMutation } from '../../schemas/index.ts';
import type { AvroSerde } from '../serde/index.ts';
import { createTestClock } from '../runtime/testing/testClock.ts';
import { createEdgeProducer } from './createEdgeProducer.ts';
import { ProducerError } from './ProducerError.ts';

/**
 * A Kafka port stand-in that records sends and, like a broker, appends each to a
 * 3-partition log (partitioned by the default partitioner, told to the producer), answering
 * with a base offset per partition; and a serde that "encodes" to JSON (bigint as string).
 */
function setup(opts: { unackedOnce?: boolean } = {}) {
  let dropOne = opts.unackedOnce ?? false;
  const sends: { topic: string; messages: readonly ProducedRecord[] }[] = [];
  const producerConfigs: unknown[] = [];
  let disconnected = false;
  const logEnd = [0, 0, 0];
  const { partitionForKey } = createKafkajsPort({ clientId: 'unit', brokers: ['localhost:1'] });
  const kafka = {
    producer: (config: ProducerOptions = {}) => {
      producerConfigs.push(config);
      const partitioner = ({ message }: { message: ProducedRecord }) => {
        const partition = partitionForKey(String(message.key), logEnd.length);
        config.onPartitioned?.(message, partition);
        return partition;
      };
      return {
        connect: async () => {},
        disconnect: async () => void (disconnected = true),
        send: async (record: { topic: string; messages: readonly ProducedRecord[] }) => {
          sends.push(record);
          const counts = [0, 0, 0];
          for (const message of record.messages) counts[partitioner({ message })]! += 1;
          // kafkajs (the default adapter) after a leader change: a partition that moved to a broker
          // which already answered for this send is never re-sent, and the send resolves without it.
          const skipped = dropOne ? counts.findIndex((n) => n > 0) : -1;
          dropOne = false;
          return counts.flatMap((n, partition) => {
            if (n === 0 || partition === skipped) return [];
            const baseOffset = String(logEnd[partition]);
            logEnd[partition]! += n;
            return [{ topicName: record.topic, partition, errorCode: 0, baseOffset }];
          });
        },
      };
    },
  } as unknown as KafkaPort;
  const encoded: { subject: string; value: EdgeMutation }[] = [];
  const encodeAs = (subject: string) => (value: EdgeMutation) => {
    encoded.push({ subject, value });
    return Buffer.from(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
  };
  const serde = {
    encode: async (subject: string, value: EdgeMutation) => encodeAs(subject)(value),
    encoder: async (subject: string) => encodeAs(subject),
    decode: async () => {
      throw new Error('not used');
    },
  } as unknown as AvroSerde;
  const clock = createTestClock({ startMs: 1_700_000_000_000 });
  let ids = 0;
  const producer = createEdgeProducer({ kafka, serde, config: defaultEdgestreamConfig({ topics: { prefix: 'p.', partitions: 3, replicationFactor: 1 } }), clock, newMutationId: () => `id-${++ids}` });
  return { producer, sends, encoded, producerConfigs, isDisconnected: () => disconnected };
}

async function rejection(p: Promise<unknown>): Promise<ProducerError> {
  const e = await p.then(() => undefined, (error: unknown) => error);
  if (!ProducerError.is(e)) throw new Error(`expected a ProducerError, got ${String(e)}`);
  return e;
}

describe('createEdgeProducer', () => {
  it('uses one port producer (idempotent, acks=all by the port) and sends to <prefix>edge-mutations', async () => {
    const s = setup();
    await Promise.all([s.producer.addEdge({ type: 'follows', src: 'alice', dst: 'bob' }), s.producer.flush()]);
    expect(s.producerConfigs).toHaveLength(1);
    expect(s.sends).toHaveLength(1);
    expect(s.sends[0]).toMatchObject({ topic: 'p.edge-mutations', messages: [{ key: 'alice' }] });
    expect(s.encoded[0]?.subject).toBe('p.edge-mutations-value');
  });

  it('resolves each call with the partition and offset its record was appended at', async () => {
    const s = setup();
    const calls = ['a', 'b', 'c', 'a', 'd', 'a'].map((src, i) => s.producer.addEdge({ type: 'follows', src, dst: `x${i}` }));
    const [sent] = await Promise.all([Promise.all(calls), s.producer.flush()]);
    const keyed = sent.map((m, i) => ({ src: s.sends[0]!.messages[i]!.key, partition: m.partition, offset: m.offset, topic: m.topic }));
    expect(new Set(keyed.map((k) => k.topic))).toEqual(new Set(['p.edge-mutations']));
    // one src always lands on one partition, its records in call order
    const ofA = keyed.filter((k) => k.src === 'a');
    expect(new Set(ofA.map((k) => k.partition)).size).toBe(1);
    expect(ofA.map((k) => Number(k.offset))).toEqual([...ofA.map((k) => Number(k.offset))].sort((x, y) => x - y));
    // each partition's records are numbered 0, 1, 2, ... as the log appended them
    for (const p of new Set(keyed.map((k) => k.partition))) {
      const offsets = keyed.filter((k) => k.partition === p).map((k) => Number(k.offset));
      expect(offsets).toEqual(offsets.map((_, i) => i));
    }
    // no two records share coordinates
    expect(new Set(keyed.map((k) => `${k.partition}:${k.offset}`)).size).toBe(6);
  });

  it('re-sends the records of a partition the acknowledgement left out (kafkajs after a leader change) and resolves every call', async () => {
    const s = setup({ unackedOnce: true });
    const calls = ['a', 'b', 'c', 'a', 'd', 'e', 'f'].map((src, i) => s.producer.addEdge({ type: 'follows', src, dst: `x${i}` }));
    const [sent] = await Promise.all([Promise.all(calls), s.producer.flush()]);
    expect(s.sends).toHaveLength(2);
    const partitions = new Set(sent.map((m) => m.partition));
    expect(partitions.size).toBeGreaterThan(1);
    // the second send carries exactly the records of the partition left out (the lowest), in call order
    const skipped = Math.min(...partitions);
    expect(s.sends[1]!.messages.map((m) => m.key)).toEqual(s.sends[0]!.messages.filter((_, i) => sent[i]!.partition === skipped).map((m) => m.key));
    for (const p of partitions) {
      const offsets = sent.filter((m) => m.partition === p).map((m) => Number(m.offset));
      expect(offsets).toEqual(offsets.map((_, i) => i));
    }
  });

  it('fills mutation ids and strictly increasing event times when not given, and keeps given ones', async () => {
    const s = setup();
    const sent = await Promise.all([
      s.producer.addEdge({ type: 'follows', src: 'a', dst: 'b', properties: { weight: 3n } }),
      s.producer.removeEdge({ type: 'follows', src: 'a', dst: 'b' }),
      s.producer.setProperties({ type: 'likes', src: 'a', dst: 'c', properties: { note: 'hi' }, eventTime: 1_699_999_000_000_000n, mutationId: 'mine' }),
      s.producer.flush(),
    ]);
    const [first, second, given] = sent;
    expect(first).toMatchObject({ mutationId: 'id-1', eventTime: 1_700_000_000_000_000n });
    // The test clock jumps by the linger on each sleep, so only the order is fixed here (see createEventClock.test.ts).
    expect(second.mutationId).toBe('id-2');
    expect(second.eventTime).toBeGreaterThan(first.eventTime);
    expect(given).toMatchObject({ mutationId: 'mine', eventTime: 1_699_999_000_000_000n });
    expect(s.encoded.map((e) => e.value.op)).toEqual(['ADD_EDGE', 'REMOVE_EDGE', 'SET_PROPERTIES']);
  });

  it('a retry of a mutationId reuses its event time, so it cannot undo a REMOVE made in between', async () => {
    const s = setup();
    const follow = { type: 'follows', src: 'a', dst: 'b', mutationId: 'follow-1' };
    const first = await s.producer.addEdge(follow);
    const unfollow = await s.producer.removeEdge({ type: 'follows', src: 'a', dst: 'b' });
    expect(unfollow.eventTime).toBeGreaterThan(first.eventTime);
    // The caller never saw the first call's answer (a timeout) and retries it; last-write-wins must keep the unfollow.
    const retried = await s.producer.addEdge(follow);
    expect(retried.eventTime).toBe(first.eventTime);
    expect(s.encoded.map((e) => [e.value.op, e.value.mutation_id, e.value.event_time])).toEqual([
      ['ADD_EDGE', 'follow-1', first.eventTime],
      ['REMOVE_EDGE', 'id-1', unfollow.eventTime],
      ['ADD_EDGE', 'follow-1', first.eventTime],
    ]);
  });

  it('a retry whose first call was refused, or that names its own event time, is not tied to an earlier time', async () => {
    const s = setup();
    await rejection(s.producer.addEdge({ type: 'hates', src: 'a', dst: 'b', mutationId: 'm' })); // nothing sent, nothing remembered
    await s.producer.removeEdge({ type: 'follows', src: 'a', dst: 'c' });
    const fixed = await s.producer.addEdge({ type: 'follows', src: 'a', dst: 'b', mutationId: 'm' });
    expect(fixed.eventTime).toBeGreaterThan(s.encoded[0]!.value.event_time);
    const explicit = await s.producer.addEdge({ type: 'follows', src: 'a', dst: 'b', mutationId: 'm', eventTime: fixed.eventTime - 5n });
    expect(explicit.eventTime).toBe(fixed.eventTime - 5n);
    expect((await s.producer.addEdge({ type: 'follows', src: 'a', dst: 'b', mutationId: 'm' })).eventTime).toBe(fixed.eventTime - 5n);
  });

  it('removeProperties names keys; an empty list clears the bag', async () => {
    const s = setup();
    await Promise.all([
      s.producer.removeProperties({ type: 'follows', src: 'a', dst: 'b', keys: ['color'] }),
      s.producer.removeProperties({ type: 'follows', src: 'a', dst: 'b', keys: [] }),
      s.producer.flush(),
    ]);
    expect(s.encoded.map((e) => [e.value.op, e.value.property_keys])).toEqual([
      ['REMOVE_PROPERTIES', ['color']],
      ['REMOVE_PROPERTIES', []],
    ]);
  });

  it('removeNode keys by the vertex, with no edge type and no dst', async () => {
    const s = setup();
    await Promise.all([s.producer.removeNode({ vertex: 'carol' }), s.producer.flush()]);
    expect(s.encoded[0]?.value).toMatchObject({ op: 'REMOVE_NODE', edge_type: '', src: 'carol', dst: '' });
    expect(s.sends[0]?.messages[0]?.key).toBe('carol');
  });

  it.each([
    ['an undeclared edge type', () => ({ type: 'hates', src: 'a', dst: 'b' }), 'type'],
    ['an empty src', () => ({ type: 'follows', src: '', dst: 'b' }), 'src'],
    ['a NUL in dst', () => ({ type: 'follows', src: 'a', dst: 'b\u0000' }), 'dst'],
    ['an event time in seconds', () => ({ type: 'follows', src: 'a', dst: 'b', eventTime: 1_700_000_000n }), 'eventTime'],
    ['an event time past the resurrection horizon (10 days old)', () => ({ type: 'follows', src: 'a', dst: 'b', eventTime: 1_700_000_000_000_000n - 864_000_000_000n }), 'eventTime'],
    ['an event time beyond the skew window (10 minutes ahead)', () => ({ type: 'follows', src: 'a', dst: 'b', eventTime: 1_700_000_600_000_000n }), 'eventTime'],
    ['an empty mutation id', () => ({ type: 'follows', src: 'a', dst: 'b', mutationId: '' }), 'mutationId'],
    ['a property of an unsupported type', () => ({ type: 'follows', src: 'a', dst: 'b', properties: { when: new Date() as never } }), 'properties.when'],
  ])('rejects %s with INVALID_ARGUMENT naming the argument, and sends nothing', async (_name, args, argument) => {
    const s = setup();
    const error = await rejection(s.producer.addEdge(args()));
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', argument, retriable: false });
    expect(error.message).toContain(`${argument}:`);
    await s.producer.flush();
    expect(s.sends).toEqual([]);
  });

  it('rejects removeProperties keys that break the rules, naming them as keys', async () => {
    const s = setup();
    const error = await rejection(s.producer.removeProperties({ type: 'follows', src: 'a', dst: 'b', keys: ['ok', ''] }));
    expect(error.argument).toMatch(/^keys/);
  });

  it('close flushes, disconnects, and makes later calls reject with CLOSED', async () => {
    const s = setup();
    const pending = s.producer.addEdge({ type: 'follows', src: 'a', dst: 'b' });
    await s.producer.close();
    await pending;
    expect(s.sends).toHaveLength(1);
    expect(s.isDisconnected()).toBe(true);
    expect(await rejection(s.producer.addEdge({ type: 'follows', src: 'a', dst: 'b' }))).toMatchObject({ code: 'CLOSED' });
    await s.producer.close(); // idempotent
  });
});

describe('createEdgeProducer: hide, unhide, edge time and data', () => {
  it('builds HIDE_EDGE and UNHIDE_EDGE events, and carries edgeTime and data (as a Buffer) on add, hide and unhide', async () => {
    const s = setup();
    const data = Uint8Array.of(1, 2, 3);
    await Promise.all([
      s.producer.addEdge({ type: 'follows', src: 'a', dst: 'b', edgeTime: 1_600_000_000_000_000n, data }),
      s.producer.hideEdge({ type: 'follows', src: 'a', dst: 'b', edgeTime: 1_600_000_000_000_000n }),
      s.producer.unhideEdge({ type: 'follows', src: 'a', dst: 'b' }),
      s.producer.flush(),
    ]);
    const [add, hide, unhide] = s.encoded.map((e) => e.value);
    expect(add).toMatchObject({ op: 'ADD_EDGE', edge_time: 1_600_000_000_000_000n, data: Buffer.from([1, 2, 3]) });
    expect(Buffer.isBuffer(add?.data)).toBe(true);
    expect(hide).toMatchObject({ op: 'HIDE_EDGE', edge_time: 1_600_000_000_000_000n, properties: {}, property_keys: [] });
    expect(hide && 'data' in hide).toBe(false);
    expect(unhide).toMatchObject({ op: 'UNHIDE_EDGE', src: 'a', dst: 'b' });
    expect(unhide && 'edge_time' in unhide).toBe(false);
  });

  it('rejects data over the limit and an edge time in seconds, naming the argument; nothing is sent', async () => {
    const s = setup();
    const big = await rejection(s.producer.hideEdge({ type: 'follows', src: 'a', dst: 'b', data: new Uint8Array(256) }));
    expect(big).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'data' });
    expect(big.message).toMatch(/^HIDE_EDGE: data: is 256 bytes, more than the 255 allowed/);
    const seconds = await rejection(s.producer.addEdge({ type: 'follows', src: 'a', dst: 'b', edgeTime: 1_700_000_000n }));
    expect(seconds).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'edgeTime' });
    await s.producer.flush();
    expect(s.sends).toEqual([]);
  });
});
