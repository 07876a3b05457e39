import type { Clock } from '../runtime/Clock.ts';
import { ProducerError } from './ProducerError.ts';

export interface OutgoingMessage {
  readonly key: string;
  readonly value: Buffer;
}

export interface SendBufferOptions<R = void> {
  /** Sends one batch; resolves when Kafka acknowledged all of it (acks=all), optionally with one result per message, in order. */
  readonly send: (messages: readonly OutgoingMessage[]) => Promise<readonly R[] | void>;
  readonly clock: Pick<Clock, 'sleep'>;
  /** A batch is sent when it holds this many messages... */
  readonly maxBatchMessages: number;
  /**
   * ...or when its first message has waited this long. 0: as soon as no batch is being sent (the
   * messages of the same turn of the event loop together); while one is, the next one fills and
   * goes out when it was acknowledged: a lone call waits for no timer, a busy producer still batches.
   */
  readonly lingerMs: number;
  /** One send request carries at most about this many value+key bytes (a batch is split when larger). */
  readonly maxRequestBytes: number;
  /** Messages accepted but not yet acknowledged; further calls wait for room (in call order). */
  readonly maxBufferedMessages: number;
}

export interface SendBuffer<R = void> {
  /** Queues one message; resolves when it is acknowledged, with its result from `send` if it gave one. `value` may still be encoding. */
  add(key: string, value: Buffer | Promise<Buffer>): Promise<R | undefined>;
  /** Sends everything queued so far; resolves when all of it settled, rejects if any of it failed. */
  flush(): Promise<void>;
  /** Number of messages accepted and not yet settled. */
  readonly buffered: number;
}

interface Entry<R> {
  readonly key: string;
  readonly value: Buffer | Promise<Buffer>;
  readonly resolve: (result: R | undefined) => void;
  readonly reject: (e: unknown) => void;
}

/**
 * Collects messages into batches and sends one batch at a time (the
 * idempotent producer allows one request in flight), keeping call order:
 * admission is FIFO, batches are sealed in order and sent in order.
 */
export function createSendBuffer<R = void>(opts: SendBufferOptions<R>): SendBuffer<R> {
  let current: Entry<R>[] = [];
  let batchNo = 0;
  let buffered = 0;
  let admission: Promise<void> = Promise.resolve();
  let sending: Promise<void> = Promise.resolve();
  let failedBatches = 0;
  /** Batches sealed and not yet settled (sent one at a time, in order). */
  let unsettled = 0;
  /** Calls waiting in `admission` (for room, or behind calls that wait): while any wait, later calls queue behind them. */
  let waiting = 0;
  const roomWaiters: (() => void)[] = [];

  const waitForRoom = (): Promise<void> =>
    buffered < opts.maxBufferedMessages ? Promise.resolve() : new Promise<void>((resolve) => roomWaiters.push(resolve));
  const settled = (n: number): void => {
    buffered -= n;
    while (buffered < opts.maxBufferedMessages && roomWaiters.length > 0) (roomWaiters.shift() as () => void)();
  };

  const seal = (): void => {
    const batch = current;
    current = [];
    batchNo++;
    if (batch.length === 0) return;
    unsettled++;
    sending = sending
      .then(() => sendBatch(batch))
      .finally(() => {
        unsettled--;
        // Without a linger, what gathered while this batch was out goes next.
        if (opts.lingerMs === 0 && unsettled === 0 && current.length > 0) seal();
      });
  };

  const sendBatch = async (batch: readonly Entry<R>[]): Promise<void> => {
    const ready: { entry: Entry<R>; message: OutgoingMessage }[] = [];
    const encoded = batch.every((e) => Buffer.isBuffer(e.value));
    const values = encoded ? undefined : await Promise.allSettled(batch.map((e) => e.value));
    batch.forEach((entry, i) => {
      const v = values?.[i];
      if (v === undefined) ready.push({ entry, message: { key: entry.key, value: entry.value as Buffer } });
      else if (v.status === 'fulfilled') ready.push({ entry, message: { key: entry.key, value: v.value } });
      else entry.reject(v.reason);
    });
    let ok = true; // encode failures are reported to their calls only
    for (const request of splitBySize(ready, opts.maxRequestBytes)) {
      try {
        const results = await opts.send(request.map((r) => r.message));
        request.forEach((r, i) => r.entry.resolve(results ? results[i] : undefined));
      } catch (e) {
        ok = false;
        const error = new ProducerError('SEND_FAILED', `sending ${request.length} mutations failed: ${e instanceof Error ? e.message : String(e)}`, {
          cause: e,
          retriable: (e as { retriable?: unknown }).retriable !== false,
        });
        for (const r of request) r.entry.reject(error);
      }
    }
    settled(batch.length);
    if (!ok) failedBatches++;
  };

  const enqueue = (key: string, value: Buffer | Promise<Buffer>): Promise<R | undefined> =>
    new Promise<R | undefined>((resolve, reject) => {
      buffered++;
      current.push({ key, value, resolve, reject });
      if (current.length >= opts.maxBatchMessages) {
        seal();
      } else if (current.length === 1) {
        const mine = batchNo;
        const sealMine = (): void => {
          if (batchNo === mine) seal();
        };
        // Without a linger, a batch being sent seals this one when it settles; else the calls of this turn go together.
        if (opts.lingerMs > 0) void opts.clock.sleep(opts.lingerMs).then(sealMine);
        else if (unsettled === 0) setImmediate(sealMine);
      }
    });

  return {
    get buffered() {
      return buffered;
    },
    add(key, value) {
      if (!Buffer.isBuffer(value)) value.catch(() => {}); // observed in sendBatch; never an unhandled rejection meanwhile
      if (waiting === 0 && buffered < opts.maxBufferedMessages) return enqueue(key, value);
      waiting++;
      const admitted = admission.then(waitForRoom);
      admission = admitted;
      return admitted.then(() => {
        waiting--;
        return enqueue(key, value);
      });
    },
    async flush() {
      const failedBefore = failedBatches;
      await admission;
      seal();
      await sending; // every batch sealed so far, in order
      if (failedBatches > failedBefore) {
        throw new ProducerError('SEND_FAILED', 'some mutations were not sent (each of their calls rejected with its reason)');
      }
    },
  };
}

function splitBySize<T extends { message: OutgoingMessage }>(items: readonly T[], maxBytes: number): T[][] {
  const requests: T[][] = [];
  let request: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = item.message.value.length + Buffer.byteLength(item.message.key);
    if (request.length > 0 && bytes + size > maxBytes) {
      requests.push(request);
      request = [];
      bytes = 0;
    }
    request.push(item);
    bytes += size;
  }
  if (request.length > 0) requests.push(request);
  return requests;
}
