import type { KafkaConsumer, KafkaPort, KafkaProducer } from '../../kafka/index.ts';
import type { Logger } from 'pino';
import type { BatchPayload } from '../stages/createBatchHandler.ts';
import type { PartitionPauser } from './partitionPauser.ts';
import { describeError } from '../failures/PipelineError.ts';
import { progressLine, type RuntimeMetrics, type RuntimeMetricsSnapshot } from '../runtimeMetrics.ts';

/** A long-running consumer: the lifecycle every runner in streams/runtime shares. */
export interface Runner {
  /** The consumer group it consumes in. */
  readonly groupId: string;
  /** Connects, joins the group and starts consuming; resolves once consumption has started. */
  start(): Promise<void>;
  /**
   * Graceful stop: the chunk in flight finishes and is committed, then the
   * consumer leaves the group and the clients disconnect. Idempotent.
   */
  stop(): Promise<void>;
  /** Resolves after `stop()`; rejects if the consumer crashed for good (a FATAL failure). */
  readonly done: Promise<void>;
  metrics(): RuntimeMetricsSnapshot;
}

export interface ConsumerLoopOptions {
  readonly kafka: KafkaPort;
  readonly groupId: string;
  readonly topic: string;
  readonly producer: KafkaProducer;
  readonly handler: (payload: BatchPayload) => Promise<void>;
  readonly logger: Logger;
  readonly metrics: RuntimeMetrics;
  readonly pauser: PartitionPauser;
  readonly partitionsConsumedConcurrently: number;
  /** Caps one fetched batch per partition, which bounds memory: one batch per partition at a time. */
  readonly maxBytesPerPartition: number;
  readonly sessionTimeoutMs: number;
  readonly maxWaitTimeMs: number;
  readonly fetchMinBytes: number;
  readonly fromBeginning: boolean;
  readonly progressIntervalMs: number;
  /** Called on every group join (the assignment may have changed), before anything of it is fetched. */
  readonly onAssignment?: () => void;
}

/** Wires a batch handler into a Kafka consumer group with manual commits. */
export function createConsumerLoop(opts: ConsumerLoopOptions): Runner {
  const { logger, metrics } = opts;
  let consumer: KafkaConsumer | undefined;
  let progressTimer: NodeJS.Timeout | undefined;
  let state: 'new' | 'running' | 'stopping' | 'stopped' = 'new';
  let settle!: { resolve: () => void; reject: (e: unknown) => void };
  const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  done.catch(() => {}); // observed through `done`; never an unhandled rejection

  let last = { at: Date.now(), snapshot: metrics.snapshot() };
  const logProgress = (): void => {
    const now = Date.now();
    const snapshot = metrics.snapshot();
    logger.info(progressLine(last.snapshot, snapshot, now - last.at), 'progress');
    last = { at: now, snapshot };
  };

  const stop = async (): Promise<void> => {
    if (state === 'stopped' || state === 'stopping') return done.catch(() => {});
    state = 'stopping';
    clearInterval(progressTimer);
    opts.pauser.cancelAll();
    try {
      await consumer?.disconnect();
      await opts.producer.disconnect();
    } finally {
      state = 'stopped';
      logProgress();
      logger.info({ group: opts.groupId }, 'stopped');
      settle.resolve();
    }
  };

  return {
    groupId: opts.groupId,
    done,
    metrics: () => metrics.snapshot(),
    stop,
    async start() {
      if (state !== 'new') throw new Error(`runner ${opts.groupId} was already started`);
      state = 'running';
      const c = opts.kafka.consumer({
        groupId: opts.groupId,
        maxBytesPerPartition: opts.maxBytesPerPartition,
        sessionTimeoutMs: opts.sessionTimeoutMs,
        maxWaitTimeMs: opts.maxWaitTimeMs,
        ...(opts.fetchMinBytes > 1 ? { minBytes: opts.fetchMinBytes } : {}),
      });
      consumer = c;
      const onAssignment = opts.onAssignment;
      if (onAssignment) c.onGroupJoin(() => onAssignment());
      c.onCrash(({ error, restart }) => {
        if (restart) {
          logger.warn({ group: opts.groupId, err: error }, 'consumer crashed; the client restarts it');
          return;
        }
        logger.fatal({ group: opts.groupId, err: error }, 'consumer crashed for good');
        clearInterval(progressTimer);
        state = 'stopped';
        void opts.producer.disconnect().catch(() => {});
        settle.reject(new Error(`consumer group ${opts.groupId} stopped: ${describeError(error)}`, { cause: error }));
      });
      await opts.producer.connect();
      await c.connect();
      await c.subscribe({ topics: [opts.topic], fromBeginning: opts.fromBeginning });
      await c.run({ partitionsConsumedConcurrently: opts.partitionsConsumedConcurrently, eachBatch: opts.handler });
      progressTimer = setInterval(logProgress, opts.progressIntervalMs);
      progressTimer.unref();
      logger.info({ group: opts.groupId, topic: opts.topic }, 'consuming');
    },
  };
}
