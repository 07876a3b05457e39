import type { ConsumedRecord, KafkaPort } from '../../kafka/index.ts';
import type { Logger } from 'pino';
import type { LogicalTopic } from '../../../processors/index.ts';
import type { EdgestreamConfig } from '../../../schemas/config/edgestreamConfig.ts';
import type { KnownSchema } from '../../../schemas/index.ts';
import type { TwoLevelMapStore } from '../../../sinks/store/index.ts';
import type { AvroSerde } from '../../serde/index.ts';
import { topicName } from '../../topics/index.ts';
import { startRetrySchedule, type RetryPolicy } from '../failures/backoff.ts';
import type { CascadeGate, CascadeLogic, CascadePlan } from './cascadeTypes.ts';
import { classifyFailure } from '../failures/classifyFailure.ts';
import { systemClock, type Clock } from '../Clock.ts';
import { createChunkRunner } from './createChunkRunner.ts';
import type { Runner } from '../consumer/createConsumerLoop.ts';
import { createEmitEncoder, type EmitSchemas } from '../stages/emitEncoder.ts';
import { failureTopicsOf, inputFailureRouter } from '../failures/failureRouter.ts';
import { isReplayForced } from '../failures/headers.ts';
import { defaultMutationIdOf } from '../stages/logFields.ts';
import { createGroupProgress, type GroupProgress } from '../consumer/groupProgress.ts';
import { describeError, PipelineError } from '../failures/PipelineError.ts';
import type { ChunkSource, OutRecord, Publisher, RecordOutcome, ValidateEvent } from '../stages/pipelineTypes.ts';
import { EventFault, retryOperation } from '../failures/retryOperation.ts';
import { createRuntimeMetrics, type RuntimeMetrics } from '../runtimeMetrics.ts';
import { inputFetchTuning, resolveTuning, retryPolicyOf, type RuntimeTuning } from '../runtimeTuning.ts';

export interface CascadeRunnerOptions<E> {
  readonly kafka: KafkaPort;
  readonly serde: AvroSerde;
  readonly store: TwoLevelMapStore;
  readonly schema: KnownSchema<E>;
  readonly logic: CascadeLogic<E>;
  /**
   * The consumer group that writes the gate cell from the same input (the fan-out). While the
   * cell is absent the cascade waits for this group to commit past the triggering record.
   */
  readonly upstreamGroupId: string;
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
 * publishes identical events. While the gate cell is absent it waits, however
 * long, for the upstream group to commit past the record, then at most
 * `runtime.cascadeGiveUpAfterMs` more. A cascade whose gate cell never came,
 * that the store refuses for good (`invalid_argument`...) or whose logic
 * throws goes to the input's DLQ as `cascade_failed`.
 */
export function createCascadeRunner<E>(opts: CascadeRunnerOptions<E>): Runner {
  const clock = opts.clock ?? systemClock;
  const input = opts.input ?? 'edge-mutations';
  const prefix = opts.config.topics.prefix;
  // The cascade pauses while a gate is closed; a resumed partition waits for the fetch in flight (at most runtime.inputFetch.maxWaitMs).
  const tuning = resolveTuning(opts.config, { ...inputFetchTuning(opts.config), ...opts.tuning });
  const logger = opts.logger.child({ component: 'cascade', cascade: opts.logic.name });
  const metrics = createRuntimeMetrics();
  const upstream = createGroupProgress(opts.kafka, opts.upstreamGroupId);
  const upstreamPassed = new Map<string, UpstreamPassed>();
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
    upstream,
    upstreamPassed,
    giveUpAfterMs: opts.config.runtime.cascadeGiveUpAfterMs,
  });
  const runner = createChunkRunner({
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
  runner.done.catch(() => upstream.close().catch(() => {})); // a crashed consumer is never stopped
  return {
    ...runner,
    async stop() {
      await runner.stop();
      await upstream.close();
    },
  };
}

/** The first time this runner saw the upstream group past a waiting record (one per partition). */
export interface UpstreamPassed {
  readonly offset: bigint;
  readonly sinceMs: number;
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
  /** The group that writes the gate cell (the fan-out). */
  readonly upstream: Pick<GroupProgress, 'groupId' | 'committedOffset'>;
  /** By `topic:partition`: kept in memory only, so a restart measures the give-up time anew (later, never sooner). */
  readonly upstreamPassed: Map<string, UpstreamPassed>;
  /** How long after the upstream passed a record its gate cell may still be missing (a repair in flight). */
  readonly giveUpAfterMs: number;
}

/** One chunk: events are considered in order; the first one that must wait defers itself and everything after it. */
export async function runCascades<E>(
  ctx: CascadeDeps<E>,
  source: ChunkSource,
  messages: readonly ConsumedRecord[],
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
      const outcome = await considerCascade(ctx, event, plan, { ...source, message }, heartbeat, logFields);
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

async function decodeOrSkip<E>(ctx: CascadeDeps<E>, message: ConsumedRecord): Promise<E | undefined> {
  if (message.value === null) return undefined;
  let event: E;
  try {
    event = await ctx.decode(message.value);
  } catch (e) {
    const decision = classifyFailure('decode', e);
    if (decision === 'dead-letter') return undefined; // the processor runtime dead-letters it
    throw new PipelineError(decision === 'retry-batch' ? 'BATCH_RETRY' : 'FATAL', `decoding failed: ${describeError(e)}`, { cause: e });
  }
  const at = { wallClockMicros: ctx.clock.nowMicros(), repair: false, replayForced: isReplayForced(message.headers) };
  const verdict = ctx.validate?.(event, at) ?? { ok: true as const, event };
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
  record: ChunkSource & { readonly message: ConsumedRecord },
  heartbeat: () => Promise<void>,
  logFields: Record<string, unknown>,
): Promise<RecordOutcome> {
  const { store, logic } = ctx;
  // A fresh retry budget per operation: a cascade over a huge node may take far longer than one budget.
  const schedule = () => startRetrySchedule(ctx.retry, ctx.clock, heartbeat);
  const onRetry = () => ctx.metrics.count('retries');
  const gateCell = await retryOperation('reading the cascade gate', 'store', schedule(), () => store.namespace(plan.gate.namespace).get(plan.gate.id, plan.gate.key), onRetry);
  const gate = pure('gate()', () => logic.gate(event, gateCell, { wallClockMicros: ctx.clock.nowMicros() }));
  if (gate.kind === 'absent') {
    const offset = await retryOperation(`reading the committed offset of ${ctx.upstream.groupId}`, 'admin', schedule(), () => ctx.upstream.committedOffset(record.topic, record.partition), onRetry);
    return awaitUpstream(ctx, gate, record, offset, logFields);
  }
  ctx.upstreamPassed.delete(`${record.topic}:${record.partition}`);
  if (gate.kind === 'wait') {
    ctx.logger.debug({ ...logFields, until_ms: gate.untilMs }, 'cascade gate closed; waiting');
    return { kind: 'defer', untilMs: gate.untilMs };
  }
  if (gateCell === undefined) throw new EventFault('gate() said go without a gate cell');
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

/**
 * The gate cell is absent. Before the upstream group has committed past the
 * record, that is lag (an outage, a deploy, a backlog): wait, however long.
 * After, the cell may still come from the repair topic; once it has not for
 * `giveUpAfterMs` since this runner first saw the upstream past the record,
 * its write was lost: dead-letter the event, saying so.
 */
function awaitUpstream<E>(
  ctx: CascadeDeps<E>,
  gate: Extract<CascadeGate, { kind: 'absent' }>,
  record: ChunkSource & { readonly message: ConsumedRecord },
  upstreamOffset: bigint | undefined,
  logFields: Record<string, unknown>,
): RecordOutcome {
  const key = `${record.topic}:${record.partition}`;
  const offset = BigInt(record.message.offset);
  const nowMs = ctx.clock.nowMs();
  const fields = { ...logFields, upstream_group: ctx.upstream.groupId, upstream_committed_offset: upstreamOffset?.toString() ?? null, waiting_ms: nowMs - Number(record.message.timestamp) };
  if (upstreamOffset === undefined || upstreamOffset <= offset) {
    ctx.upstreamPassed.delete(key);
    ctx.logger.info(fields, `cascade waiting: ${gate.what} not visible and ${ctx.upstream.groupId} has not passed the record; partition paused`);
    return { kind: 'defer', untilMs: gate.recheckAtMs };
  }
  let passed = ctx.upstreamPassed.get(key);
  if (passed?.offset !== offset) ctx.upstreamPassed.set(key, (passed = { offset, sinceMs: nowMs }));
  const sincePassedMs = nowMs - passed.sinceMs;
  if (sincePassedMs >= ctx.giveUpAfterMs) {
    ctx.upstreamPassed.delete(key);
    throw new EventFault(
      `${gate.what} still not visible ${sincePassedMs} ms after ${ctx.upstream.groupId} was seen committed past offset ${offset} (at ${upstreamOffset}): its write was lost (look for the same mutation id in the DLQ)`,
    );
  }
  ctx.logger.warn({ ...fields, since_passed_ms: sincePassedMs, give_up_after_ms: ctx.giveUpAfterMs }, `cascade waiting: ${ctx.upstream.groupId} passed the record but ${gate.what} is not visible (a repair may still write it)`);
  return { kind: 'defer', untilMs: Math.min(gate.recheckAtMs, passed.sinceMs + ctx.giveUpAfterMs) };
}

/** Calls pure logic; a throw is the event's (or the logic's) fault: dead-letter, never retry. */
function pure<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw new EventFault(`${what} threw: ${describeError(e)}`, { cause: e });
  }
}
