import { describe, expect, it } from 'vitest';
import { createTestClock } from '../runtime/testing/testClock.ts';
import { createSendBuffer, type OutgoingMessage, type SendBufferOptions } from './createSendBuffer.ts';
import { ProducerError } from './ProducerError.ts';

function setup(overrides: Partial<SendBufferOptions> = {}) {
  const clock = createTestClock({ autoAdvance: false });
  const sent: OutgoingMessage[][] = [];
  const failures: unknown[] = [];
  const buffer = createSendBuffer({
    clock,
    lingerMs: 5,
    maxBatchMessages: 3,
    maxRequestBytes: 1_000,
    maxBufferedMessages: 100,
    send: async (messages) => {
      const failure = failures.shift();
      if (failure !== undefined) throw failure;
      sent.push([...messages]);
    },
    ...overrides,
  });
  const add = (key: string, value = key) => buffer.add(key, Promise.resolve(Buffer.from(value)));
  return { clock, sent, failures, buffer, add };
}

const keys = (batches: OutgoingMessage[][]) => batches.map((b) => b.map((m) => m.key));
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('createSendBuffer', () => {
  it('sends a full batch at once and the rest after the linger time, in call order', async () => {
    const s = setup();
    const acks = ['a', 'b', 'c', 'd'].map((k) => s.add(k));
    await tick();
    expect(keys(s.sent)).toEqual([['a', 'b', 'c']]);
    await s.clock.advance(5);
    await Promise.all(acks);
    expect(keys(s.sent)).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('flush sends a partial batch without waiting for the linger time', async () => {
    const s = setup();
    const ack = s.add('a');
    await s.buffer.flush();
    await ack;
    expect(keys(s.sent)).toEqual([['a']]);
    expect(s.buffer.buffered).toBe(0);
  });

  it('keeps call order when an earlier value is still encoding', async () => {
    const s = setup();
    let finishEncoding!: (b: Buffer) => void;
    const slow = s.buffer.add('slow', new Promise<Buffer>((resolve) => (finishEncoding = resolve)));
    const fast = s.add('fast');
    const flushed = s.buffer.flush();
    finishEncoding(Buffer.from('x'));
    await Promise.all([slow, fast, flushed]);
    expect(keys(s.sent)).toEqual([['slow', 'fast']]);
  });

  it('rejects only the call whose value failed to encode', async () => {
    const s = setup();
    const bad = s.buffer.add('bad', Promise.reject(new ProducerError('ENCODE_FAILED', 'registry down', { retriable: true })));
    const good = s.add('good');
    await s.buffer.flush();
    await expect(bad).rejects.toMatchObject({ code: 'ENCODE_FAILED', retriable: true });
    await expect(good).resolves.toBeUndefined();
    expect(keys(s.sent)).toEqual([['good']]);
  });

  it('rejects every call of a batch Kafka did not acknowledge, and flush says so', async () => {
    const s = setup();
    s.failures.push(Object.assign(new Error('not enough replicas'), { retriable: true }));
    const acks = [s.add('a'), s.add('b')];
    await expect(s.buffer.flush()).rejects.toMatchObject({ code: 'SEND_FAILED' });
    for (const ack of acks) await expect(ack).rejects.toMatchObject({ code: 'SEND_FAILED', retriable: true });
    const later = s.add('c'); // still usable afterwards
    await s.buffer.flush();
    await later;
    expect(keys(s.sent)).toEqual([['c']]);
  });

  it('splits a batch into requests of at most maxRequestBytes', async () => {
    const s = setup({ maxRequestBytes: 10, maxBatchMessages: 10 });
    const acks = ['aaaa', 'bbbb', 'cccc'].map((k) => s.add(k)); // 8 bytes each (key + value)
    await s.buffer.flush();
    await Promise.all(acks);
    expect(keys(s.sent)).toEqual([['aaaa'], ['bbbb'], ['cccc']]);
  });

  it('makes callers wait for room when maxBufferedMessages are unacknowledged, then admits them in order', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const sent: string[] = [];
    const clock = createTestClock({ autoAdvance: false });
    const buffer = createSendBuffer({
      clock,
      lingerMs: 5,
      maxBatchMessages: 2,
      maxRequestBytes: 1_000,
      maxBufferedMessages: 2,
      send: async (messages) => {
        await gate;
        sent.push(...messages.map((m) => m.key));
      },
    });
    const acks = ['a', 'b', 'c', 'd'].map((k) => buffer.add(k, Promise.resolve(Buffer.from(k))));
    await tick();
    expect(buffer.buffered).toBe(2); // c and d wait for room
    release();
    await buffer.flush();
    await Promise.all(acks);
    expect(sent).toEqual(['a', 'b', 'c', 'd']);
  });

  describe('without a linger (lingerMs 0)', () => {
    it('sends a lone call at once, with no timer to wait for', async () => {
      const s = setup({ lingerMs: 0 });
      const ack = s.add('a');
      await tick();
      await tick();
      expect(keys(s.sent)).toEqual([['a']]);
      await ack; // the test clock never moved
    });

    it('sends the calls of one turn together', async () => {
      const s = setup({ lingerMs: 0, maxBatchMessages: 10 });
      const acks = ['a', 'b', 'c'].map((k) => s.add(k));
      await Promise.all(acks);
      expect(keys(s.sent)).toEqual([['a', 'b', 'c']]);
    });

    it('gathers the calls made while a batch is out into the next one, sent when that batch is acknowledged', async () => {
      const releases: (() => void)[] = [];
      const sent: string[][] = [];
      const buffer = createSendBuffer({
        clock: createTestClock({ autoAdvance: false }),
        lingerMs: 0,
        maxBatchMessages: 10,
        maxRequestBytes: 1_000,
        maxBufferedMessages: 100,
        send: async (messages) => {
          sent.push(messages.map((m) => m.key));
          await new Promise<void>((resolve) => releases.push(resolve));
        },
      });
      const add = (k: string) => buffer.add(k, Buffer.from(k));
      const first = add('a');
      await tick();
      expect(sent).toEqual([['a']]);
      const later = ['b', 'c', 'd'].map(add);
      await tick();
      await tick();
      expect(sent).toEqual([['a']]); // a is still out: b, c and d wait for it, not for a timer
      releases.shift()?.();
      await first;
      await tick();
      expect(sent).toEqual([['a'], ['b', 'c', 'd']]);
      releases.shift()?.();
      await Promise.all(later);
      expect(buffer.buffered).toBe(0);
    });
  });
});
