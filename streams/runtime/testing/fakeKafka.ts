import type { Batch, IHeaders, KafkaMessage } from 'kafkajs';
import type { BatchPayload } from '../createBatchHandler.ts';
import type { OutRecord, Publisher } from '../pipelineTypes.ts';

/** A consumed record as kafkajs hands it over (record-batch format: headers always present). */
export function message(offset: number, value: Buffer | null, opts: { key?: string; headers?: IHeaders; timestamp?: number } = {}): KafkaMessage {
  return {
    key: opts.key === undefined ? null : Buffer.from(opts.key),
    value,
    timestamp: String(opts.timestamp ?? 1_700_000_000_000),
    attributes: 0,
    offset: String(offset),
    headers: opts.headers ?? {},
  };
}

/** An eachBatch payload that records what the handler did with offsets, heartbeats and pauses. */
export function fakePayload(topic: string, partition: number, messages: KafkaMessage[], { running = (): boolean => true }: { running?: () => boolean } = {}) {
  const log = { resolved: [] as string[], committed: [] as string[], heartbeats: 0, paused: 0, resumed: 0 };
  const batch = {
    topic,
    partition,
    highWatermark: String(messages.length),
    messages,
    isEmpty: () => messages.length === 0,
    firstOffset: () => messages[0]?.offset ?? null,
    lastOffset: () => messages[messages.length - 1]?.offset ?? '-1',
    offsetLag: () => '0',
    offsetLagLow: () => '0',
  } satisfies Batch;
  const payload: BatchPayload = {
    batch,
    resolveOffset: (offset) => void log.resolved.push(offset),
    heartbeat: async () => void log.heartbeats++,
    pause: () => {
      log.paused++;
      return () => void log.resumed++;
    },
    commitOffsetsIfNecessary: async (offsets) => {
      for (const t of offsets?.topics ?? []) for (const p of t.partitions) log.committed.push(`${t.topic}:${p.partition}@${p.offset}`);
    },
    isRunning: running,
    isStale: () => false,
  };
  return { payload, log };
}

/** A Publisher that keeps what it was given, and can be told to fail. */
export function fakePublisher() {
  const published: OutRecord[] = [];
  let failures: unknown[] = [];
  const publisher: Publisher = {
    async publish(records) {
      const failure = failures.shift();
      if (failure !== undefined) throw failure;
      published.push(...records);
    },
  };
  return { publisher, published, failNext: (...errors: unknown[]) => void (failures = errors) };
}
