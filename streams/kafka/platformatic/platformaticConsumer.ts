import { setTimeout as delay } from 'node:timers/promises';
import { Consumer, type BaseOptions } from '@platformatic/kafka';
import type { Logger } from 'pino';
import type { ConsumerCrash, ConsumerOptions, KafkaConsumer } from '../KafkaPort.ts';
import { batchPayload } from './batchPayload.ts';
import { ConsumerPartitions } from './consumerPartitions.ts';
import { fetchRound, type FetchRoundDeps } from './fetchRound.ts';
import { clientLevel } from './platformaticLogs.ts';
import { KafkaAdapterError, withRetriable } from './platformaticErrors.ts';

/** The kafkajs defaults the runtime was tuned with. */
const DEFAULT_SESSION_TIMEOUT_MS = 30_000;
const HEARTBEAT_INTERVAL_MS = 3_000;
const REBALANCE_TIMEOUT_MS = 60_000;
const MAX_BYTES_PER_FETCH = 10_485_760;
/** A retriable failure (a handler's, a fetch's) backs off from this, doubling up to the maximum. */
const INITIAL_RETRY_MS = 300;
const MAX_RETRY_MS = 30_000;
/** Consecutive retriable failures after which the crash is reported (restart: true), as kafkajs reports an exhausted retrier. */
const RETRIES_BEFORE_REPORT = 5;
/** How often an idle loop (nothing assigned, everything paused or in hand) looks again. */
const IDLE_MS = 100;

/**
 * The port's group consumer on @platformatic/kafka. The client keeps the group membership
 * (join, sync, background heartbeats, re-join on a rebalance); this adapter fetches and hands
 * out batches itself, since the client's message stream has no per-partition pause, seek or
 * batch: one fetch per broker per round, each partition's records one batch, up to
 * `partitionsConsumedConcurrently` batches handled at once, the next round once they are done.
 * Offsets move only as the handler resolves them; nothing is committed but what it commits.
 */
export function platformaticConsumer(base: BaseOptions, options: ConsumerOptions, logger?: Logger): KafkaConsumer {
  const sessionTimeout = options.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS;
  const groupOptions = { sessionTimeout, heartbeatInterval: Math.min(HEARTBEAT_INTERVAL_MS, Math.floor(sessionTimeout / 3)), rebalanceTimeout: REBALANCE_TIMEOUT_MS };
  const consumer = new Consumer({
    ...base,
    groupId: options.groupId,
    autocommit: false,
    ...groupOptions,
    maxWaitTime: options.maxWaitTimeMs ?? 5_000,
    ...(options.minBytes === undefined ? {} : { minBytes: options.minBytes }),
    maxBytes: MAX_BYTES_PER_FETCH,
    ...(options.maxBytesPerPartition === undefined ? {} : { maxBytesPerPartition: options.maxBytesPerPartition }),
  });
  const log = logger?.child({ component: 'platformatic-kafka', group: options.groupId });
  const partitions = new ConsumerPartitions();
  const joinListeners: ((assignment: Readonly<Record<string, readonly number[]>>) => void)[] = [];
  const rebalanceListeners: (() => void)[] = [];
  const crashListeners: ((crash: ConsumerCrash) => void)[] = [];
  let topics: readonly string[] = [];
  let fromBeginning = false;
  let running = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  const nudge = (): void => wake?.();
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => ((wake = undefined), resolve()), ms);
      wake = () => (clearTimeout(timer), (wake = undefined), resolve());
    });

  const crash = (crashInfo: ConsumerCrash): void => {
    for (const listener of crashListeners) listener(crashInfo);
  };

  consumer.on('consumer:group:rebalance', () => {
    partitions.revokeAll();
    for (const listener of rebalanceListeners) listener();
  });
  consumer.on('consumer:group:join', ({ assignments }) => {
    const assignment: Record<string, number[]> = {};
    for (const a of assignments ?? []) assignment[a.topic] = [...a.partitions];
    partitions.assign(assignment);
    log?.debug({ assignment, generation: partitions.generation }, 'joined the group');
    for (const listener of joinListeners) listener(assignment);
    nudge();
  });
  consumer.on('consumer:heartbeat:error', ({ error }) => log?.[clientLevel(error)]({ err: error }, 'heartbeat failed'));
  // A re-join the client started on its own failed: the member is out of the group until it joins again.
  let rejoining = false;
  const rejoin = async (): Promise<void> => {
    if (rejoining) return;
    rejoining = true;
    try {
      for (let attempt = 0; running; attempt++) {
        await delay(Math.min(MAX_RETRY_MS, INITIAL_RETRY_MS * 2 ** attempt));
        if (!running) return;
        try {
          await consumer.joinGroup(groupOptions);
          return;
        } catch (e) {
          log?.[clientLevel(e)]({ err: e, attempt }, 'joining the group failed; trying again');
          if ((attempt + 1) % RETRIES_BEFORE_REPORT === 0) crash({ error: e as Error, restart: true });
        }
      }
    } finally {
      rejoining = false;
    }
  };
  consumer.on('error', (error: Error) => {
    if (!running) return;
    partitions.revokeAll();
    log?.[clientLevel(error)]({ err: error }, 'the group re-join failed; joining again');
    crash({ error, restart: true });
    void rejoin();
  });

  const deps: FetchRoundDeps = { consumer, partitions, fromBeginning: () => fromBeginning, maxBytesPerPartition: options.maxBytesPerPartition ?? 1_048_576 };

  const consume = async (eachBatch: Parameters<KafkaConsumer['run']>[0]['eachBatch'], concurrency: number): Promise<void> => {
    let failures = 0;
    while (running) {
      let outcome: Awaited<ReturnType<typeof fetchRound>>;
      try {
        outcome = await fetchRound(deps, topics, concurrency, (batch, mark) =>
          eachBatch(batchPayload({ batch, mark, partitions, consumer, isRunning: () => running, nudge })),
        );
      } catch (e) {
        outcome = { kind: 'failed', error: e as Error, source: 'fetch' };
      }
      if (!running) return;
      if (outcome.kind === 'idle') {
        await sleep(IDLE_MS);
        continue;
      }
      if (outcome.kind === 'done') {
        failures = 0;
        continue;
      }
      const error = withRetriable(outcome.error) as Error & { retriable?: boolean };
      if (error.retriable !== true) {
        log?.error({ err: error, source: outcome.source }, 'consumer stops: a failure not worth retrying');
        running = false;
        crash({ error, restart: false });
        await consumer.close(true).catch(() => undefined);
        return;
      }
      failures++;
      log?.[outcome.source === 'fetch' ? clientLevel(error) : 'debug']({ err: error, source: outcome.source, failures }, 'retrying after a failure');
      const backOff = Math.min(MAX_RETRY_MS, INITIAL_RETRY_MS * 2 ** (failures - 1));
      if (failures >= RETRIES_BEFORE_REPORT) {
        crash({ error, restart: true });
        failures = 0;
      }
      await sleep(backOff);
    }
  };

  return {
    connect: async () => {
      try {
        await consumer.listApis();
      } catch (e) {
        throw withRetriable(e);
      }
    },
    async disconnect() {
      running = false;
      nudge();
      await loop;
      await consumer.close(true);
    },
    subscribe: async (args) => {
      topics = [...args.topics];
      fromBeginning = args.fromBeginning;
    },
    // Like kafkajs' run(): a first join that fails is reported as a crash, not thrown; a retriable
    // one (the coordinator still loading on a fresh cluster) is retried in the background.
    async run({ partitionsConsumedConcurrently, eachBatch }) {
      if (running) throw new KafkaAdapterError('the consumer is already running', false);
      running = true;
      for (const topic of topics) consumer.topics.track(topic);
      try {
        await consumer.joinGroup(groupOptions);
      } catch (e) {
        const error = withRetriable(e) as Error & { retriable?: boolean };
        log?.[clientLevel(error)]({ err: error }, 'joining the group failed');
        if (error.retriable !== true) {
          running = false;
          crash({ error, restart: false });
          return;
        }
        crash({ error, restart: true });
        void rejoin();
      }
      loop = consume(eachBatch, partitionsConsumedConcurrently ?? 1);
    },
    pause: (list) => {
      for (const { topic, partitions: ps } of list) partitions.pause(topic, ps);
    },
    seek: ({ topic, partition, offset }) => {
      partitions.seek(`${topic}:${partition}`, BigInt(offset));
      nudge();
    },
    onGroupJoin: (listener) => void joinListeners.push(listener),
    onRebalancing: (listener) => void rebalanceListeners.push(listener),
    onCrash: (listener) => void crashListeners.push(listener),
  };
}
