import type { ConsumedRecord, KafkaPort } from '../../kafka/index.ts';
import type { Logger } from 'pino';
import type { Emit, LogicalTopic } from '../../../processors/index.ts';
import type { EdgestreamConfig } from '../../../schemas/config/edgestreamConfig.ts';
import type { KnownSchema } from '../../../schemas/index.ts';
import type { AvroSerde } from '../../serde/index.ts';
import { topicName } from '../../topics/index.ts';
import { startRetrySchedule } from '../failures/backoff.ts';
import { classifyFailure, type Boundary } from '../failures/classifyFailure.ts';
import { systemClock, type Clock } from '../Clock.ts';
import { createChunkRunner } from '../runners/createChunkRunner.ts';
import type { Runner } from '../consumer/createConsumerLoop.ts';
import { createEmitEncoder } from '../stages/emitEncoder.ts';
import { failureTopicsOf, inputFailureRouter } from '../failures/failureRouter.ts';
import { describeError, PipelineError } from '../failures/PipelineError.ts';
import type { Publisher, RecordOutcome } from '../stages/pipelineTypes.ts';
import { EventFault, retryOperation } from '../failures/retryOperation.ts';
import { createRuntimeMetrics } from '../runtimeMetrics.ts';
import { resolveTuning, retryPolicyOf, type RuntimeTuning } from '../runtimeTuning.ts';

/** What a split stage's handler may do besides store I/O. */
export interface StageContext {
  readonly clock: Clock;
  readonly logger: Logger;
  /** Keeps the group membership alive during a long walk. */
  heartbeat(): Promise<void>;
  /** Publishes one event (acks=all) before the task's offset is committed. */
  emit(emit: Emit): Promise<void>;
  /**
   * Runs a store/encode operation with the runtime's retry policy. When the
   * budget runs out the whole task is re-delivered (stages resume from their
   * checkpoints); a failure retrying cannot fix dead-letters the task.
   */
  op<T>(what: string, boundary: Boundary, fn: () => Promise<T>): Promise<T>;
}

/** A handler's verdict: done (commit), or come back later (the partition pauses; offsets before are committed). */
export type StageOutcome = { readonly kind: 'done' } | { readonly kind: 'defer'; readonly untilMs: number };

export interface SplitStageRunnerOptions<E> {
  readonly kafka: KafkaPort;
  readonly serde: AvroSerde;
  readonly config: EdgestreamConfig;
  readonly logger: Logger;
  /** Consumer group suffix and log name, e.g. `split-planner`. */
  readonly name: string;
  readonly input: LogicalTopic;
  readonly schema: KnownSchema<E>;
  readonly handle: (event: E, ctx: StageContext) => Promise<StageOutcome>;
  readonly clock?: Clock;
  readonly tuning?: Partial<RuntimeTuning>;
}

/**
 * A consumer group `<prefix><name>` on a chain topic whose tasks are few and
 * long (a walk over a whole wide partition): one task at a time per
 * partition, heartbeats between pages, the offset committed after the task
 * finished and its next task was published. Undecodable tasks and tasks that
 * fail for good go to `<input>.dlq` (`undecodable` / `split_failed`); a task
 * that keeps failing retriably is re-delivered, and resumes from its checkpoint.
 */
export function createSplitStageRunner<E>(opts: SplitStageRunnerOptions<E>): Runner {
  const clock = opts.clock ?? systemClock;
  const prefix = opts.config.topics.prefix;
  const tuning = resolveTuning(opts.config, { maxWaitTimeMs: 1_000, maxRecordsPerChunk: 1, ...opts.tuning });
  const logger = opts.logger.child({ component: 'split', stage: opts.name });
  const metrics = createRuntimeMetrics();
  const encodeEmit = createEmitEncoder({ serde: opts.serde, prefix });
  const retry = retryPolicyOf(opts.config, tuning);

  const runOne = async (
    publisher: Publisher,
    message: ConsumedRecord,
    source: { topic: string; partition: number },
    heartbeat: () => Promise<void>,
  ): Promise<RecordOutcome> => {
    const fields = { ...source, offset: message.offset };
    if (message.value === null) return { kind: 'dead-letter', reason: 'undecodable', error: 'null value' };
    let event: E;
    try {
      event = (await opts.serde.decode(message.value, opts.schema)).value;
    } catch (e) {
      if (classifyFailure('decode', e) === 'dead-letter') return { kind: 'dead-letter', reason: 'undecodable', error: describeError(e) };
      throw new PipelineError('BATCH_RETRY', `decoding a ${opts.name} task failed: ${describeError(e)}`, { cause: e });
    }
    const ctx: StageContext = {
      clock,
      logger: logger.child(fields),
      heartbeat,
      op: (what, boundary, fn) => retryOperation(what, boundary, startRetrySchedule(retry, clock, heartbeat), fn, () => metrics.count('retries')),
      emit: async (emit) => {
        const record = await ctx.op('encoding a chain event', 'encode', () => encodeEmit(emit));
        await ctx.op('publishing a chain event', 'produce', () => publisher.publish([record]));
      },
    };
    try {
      return await opts.handle(event, ctx);
    } catch (e) {
      if (!(e instanceof EventFault)) throw e;
      ctx.logger.error({ err: e }, `${opts.name} failed for good; task dead-lettered`);
      return { kind: 'dead-letter', reason: 'split_failed', error: e.message };
    }
  };

  return createChunkRunner({
    kafka: opts.kafka,
    config: opts.config,
    tuning,
    clock,
    logger,
    metrics,
    groupId: `${prefix}${opts.name}`,
    topic: topicName(prefix, opts.input),
    route: inputFailureRouter(failureTopicsOf(prefix, opts.input)),
    run: (publisher) => async (source, messages, heartbeat) => {
      const outcomes: RecordOutcome[] = [];
      for (const message of messages) {
        const outcome = await runOne(publisher, message, source, heartbeat);
        outcomes.push(outcome);
        if (outcome.kind === 'defer') break;
      }
      while (outcomes.length < messages.length) outcomes.push(outcomes.at(-1) as RecordOutcome);
      return outcomes;
    },
  });
}
