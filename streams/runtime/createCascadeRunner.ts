import type { Kafka, KafkaMessage } from 'kafkajs';
import type { Logger } from 'pino';
import type { LogicalTopic } from '../../processors/index.ts';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import type { KnownSchema } from '../../schemas/index.ts';
import type { TwoLevelMapStore } from '../../sinks/store/index.ts';
import type { AvroSerde } from '../serde/index.ts';
import { topicName } from '../topics/index.ts';
import { startRetrySchedule, type RetryPolicy } from './backoff.ts';
import type { CascadeLogic, CascadePlan } from './cascadeTypes.ts';
import { classifyFailure } from './classifyFailure.ts';
import { systemClock, type Clock } from './Clock.ts';
import { createChunkRunner } from './createChunkRunner.ts';
import type { Runner } from './createConsumerLoop.ts';
import { createEmitEncoder, type EmitSchemas } from './emitEncoder.ts';
import { failureTopicsOf, inputFailureRouter } from './failureRouter.ts';
import { defaultMutationIdOf } from './logFields.ts';
import { describeError, PipelineError } from './PipelineError.ts';
import type { ChunkSource, OutRecord, Publisher, RecordOutcome, ValidateEvent } from './pipelineTypes.ts';
import { EventFault, retryOperation } from './retryOperation.ts';
import { createRuntimeMetrics, type RuntimeMetrics } from './runtimeMetrics.ts';
import { resolveTuning, retryPolicyOf, type RuntimeTuning } from './runtimeTuning.ts';

export interface CascadeRunnerOptions<E> {
  readonly kafka: Kafka;
  readonly serde: AvroSerde;
  readonly store: TwoLevelMapStore;
  readonly schema: KnownSchema<E>;
  readonly logic: CascadeLogic<E>;
  /** Events that fail validation start no cascade (the processor runtime dead-letters them). Default: accept all. */
  readonly validate?: ValidateEvent<E>;
  readonly config: EdgestreamConfig;
  readonly logger: Logger;
  readonly input?: LogicalTopic;
  readonly clock?: Clock;
  readonly emitSchemas?: EmitSchemas;
  readonly tuning?: Partial<RuntimeTuning>;
  /** Cells per page of a source partition. Default 500. */
  readonly pageSize?: number;
}

/**
 * The cascade runner (docs/architecture.md §5 "REMOVE_NODE cascade"): its own
 * consumer group `<prefix><logic.name>` on the input topic. For each event
 * that plans a cascade it reads the gate cell; while the gate says wait, the
 * partition is paused (offsets before the event are committed); when it says
 * go, it pages every source partition and publishes what the logic returns
 * for each page (acks=all) before moving on. The offset is committed only
 * after the whole cascade was published, so a crash re-runs it, which
 * publishes identical events. A cascade the store refuses for good
 * (`invalid_argument`...) or whose logic throws goes to the input's DLQ as
 * `cascade_failed`.
 */
export function createCascadeRunner<E>(opts: CascadeRunnerOptions<E>): Runner {
  const clock = opts.clock ?? systemClock;
  const input = opts.input ?? 'edge-mutations';
  const prefix = opts.config.topics.prefix;
  // The cascade pauses while a gate is closed; a resumed partition waits for the fetch in flight.
  const tuning = resolveTuning(opts.config, { maxWaitTimeMs: 1_000, ...opts.tuning });
  const logger = opts.logger.child({ component: 'cascade', cascade: opts.logic.name });
  const metrics = createRuntimeMetrics();
  const depsWith = (publisher: Publisher): CascadeDeps<E> => ({
    store: opts.store,
    logic: opts.logic,
    decode: async (value) => (await opts.serde.decode(value, opts.schema)).value,
    ...(opts.validate ? { validate: opts.validate } : {}),
    clock,
    logger,
    metrics,
    publisher,
    pageSize: opts.pageSize ?? 500,
    encodeEmit: createEmitEncoder({ serde: opts.serde, prefix, ...(opts.emitSchemas ? { schemas: opts.emitSchemas } : {}) }),
    retry: retryPolicyOf(opts.config, tuning),
  });
  return createChunkRunner({
    kafka: opts.kafka,
    config: opts.config,
    tuning,
    clock,
    logger,
    metrics,
    groupId: `${prefix}${opts.logic.name}`,
    topic: topicName(prefix, input),
    route: inputFailureRouter(failureTopicsOf(prefix, input)),
    run: (publisher) => {
      const deps = depsWith(publisher);
      return (source, messages, heartbeat) => runCascades(deps, source, messages, heartbeat);
    },
  });
}

/** What `runCascades` needs (built once per runner). */
export interface CascadeDeps<E> {
  readonly store: TwoLevelMapStore;
  readonly logic: CascadeLogic<E>;
  readonly decode: (value: Buffer) => Promise<E>;
  readonly validate?: ValidateEvent<E>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: RuntimeMetrics;
  readonly publisher: Publisher;
  readonly pageSize: number;
  readonly encodeEmit: ReturnType<typeof createEmitEncoder>;
  readonly retry: RetryPolicy;
}

/** One chunk: events are considered in order; the first one that must wait defers itself and everything after it. */
export async function runCascades<E>(
  ctx: CascadeDeps<E>,
  source: ChunkSource,
  messages: readonly KafkaMessage[],
  heartbeat: () => Promise<void>,
): Promise<RecordOutcome[]> {
  const outcomes: RecordOutcome[] = [];
  let deferUntil: number | undefined;
  for (const message of messages) {
    if (deferUntil !== undefined) {
      outcomes.push({ kind: 'defer', untilMs: deferUntil });
      continue;
    }
    const fields = { ...source, offset: message.offset };
    const event = await decodeOrSkip(ctx, message);
    const plan = event === undefined ? undefined : planOf(ctx, event);
    if (event === undefined || plan === undefined) {
      outcomes.push({ kind: 'done' });
      continue;
    }
    const logFields = { ...fields, mutation_id: defaultMutationIdOf(event) };
    try {
      const outcome = await considerCascade(ctx, event, plan, message, heartbeat, logFields);
      if (outcome.kind === 'defer') deferUntil = outcome.untilMs;
      outcomes.push(outcome);
    } catch (e) {
      if (!(e instanceof EventFault)) throw e;
      ctx.logger.error({ ...logFields, err: e }, 'cascade failed for good; event dead-lettered');
      outcomes.push({ kind: 'dead-letter', reason: 'cascade_failed', error: e.message });
    }
  }
  return outcomes;
}

async function decodeOrSkip<E>(ctx: CascadeDeps<E>, message: KafkaMessage): Promise<E | undefined> {
  if (message.value === null) return undefined;
  let event: E;
  try {
    event = await ctx.decode(message.value);
  } catch (e) {
    const decision = classifyFailure('decode', e);
    if (decision === 'dead-letter') return undefined; // the processor runtime dead-letters it
    throw new PipelineError(decision === 'retry-batch' ? 'BATCH_RETRY' : 'FATAL', `decoding failed: ${describeError(e)}`, { cause: e });
  }
  const verdict = ctx.validate?.(event, ctx.clock.nowMicros()) ?? { ok: true as const, event };
  return verdict.ok ? verdict.event : undefined;
}

function planOf<E>(ctx: CascadeDeps<E>, event: E): CascadePlan | undefined {
  try {
    return ctx.logic.plan(event);
  } catch (e) {
    throw new EventFault(`plan() threw: ${describeError(e)}`, { cause: e });
  }
}

async function considerCascade<E>(
  ctx: CascadeDeps<E>,
  event: E,
  plan: CascadePlan,
  message: KafkaMessage,
  heartbeat: () => Promise<void>,
  logFields: Record<string, unknown>,
): Promise<RecordOutcome> {
  const { store, logic } = ctx;
  // A fresh retry budget per operation: a cascade over a huge node may take far longer than one budget.
  const schedule = () => startRetrySchedule(ctx.retry, ctx.clock, heartbeat);
  const onRetry = () => ctx.metrics.count('retries');
  const gateCell = await retryOperation('reading the cascade gate', 'store', schedule(), () => store.namespace(plan.gate.namespace).get(plan.gate.id, plan.gate.key), onRetry);
  const gate = pure('gate()', () => logic.gate(event, gateCell, { wallClockMicros: ctx.clock.nowMicros(), recordTimestampMs: Number(message.timestamp) }));
  if (gate.kind === 'wait') {
    ctx.logger.debug({ ...logFields, until_ms: gate.untilMs }, 'cascade gate closed; waiting');
    return { kind: 'defer', untilMs: gate.untilMs };
  }
  if (gate.kind === 'skip' || gateCell === undefined) {
    ctx.logger.warn({ ...logFields, reason: gate.kind === 'skip' ? gate.reason : 'gate said go without a gate cell' }, 'cascade skipped');
    return { kind: 'done' };
  }
  let published = 0;
  for (const source of plan.sources) {
    let pageState: string | undefined;
    do {
      const page = await retryOperation(`paging ${source.namespace}[${source.id}]`, 'store', schedule(), () =>
        store.namespace(source.namespace).slice(source.id, { limit: ctx.pageSize, ...(pageState === undefined ? {} : { pageState }) }), onRetry);
      const emits = pure('emitsForPage()', () => logic.emitsForPage(event, gateCell, source, page.cells));
      const records: OutRecord[] = [];
      for (const emit of emits) records.push(await retryOperation('encoding a cascade event', 'encode', schedule(), () => ctx.encodeEmit(emit), onRetry));
      if (records.length > 0) {
        await retryOperation('publishing cascade events', 'produce', schedule(), () => ctx.publisher.publish(records), onRetry);
        published += records.length;
      }
      pageState = page.pageState;
      await heartbeat();
    } while (pageState !== undefined);
  }
  ctx.metrics.count('emitted', published);
  ctx.logger.info({ ...logFields, published, sources: plan.sources.length }, 'cascade published');
  return { kind: 'done' };
}

/** Calls pure logic; a throw is the event's (or the logic's) fault: dead-letter, never retry. */
function pure<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw new EventFault(`${what} threw: ${describeError(e)}`, { cause: e });
  }
}
