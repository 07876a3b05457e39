import type { KafkaPort } from '../kafka/index.ts';
import type { Logger } from 'pino';
import { createFanOutProcessor, createNodeRemovalCascade, degreeRecountLogic } from '../../processors/index.ts';
import { recountIntentHoldMs, type EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { knownSchemas, type EdgeMutation } from '../../schemas/index.ts';
import { validateEdgeMutation } from '../../schemas/validation/index.ts';
import type { CacheStats } from '../../sinks/caches/CacheStats.ts';
import { NODE_TOMBSTONES_NAMESPACE, splittableNamespaces } from '../../sinks/namespaces/index.ts';
import { createConfiguredSplitDirectory, type SplitDirectory } from '../../sinks/wide/index.ts';
import type { TwoLevelMapStore } from '../../sinks/store/TwoLevelMapStore.ts';
import {
  budgetedStore,
  composeProcessorStore,
  createCascadeRunner,
  createConfiguredBackgroundBudget,
  createLinkCache,
  createProcessorRuntime,
  createRecounter,
  createShardOwnership,
  createRepairRunner,
  systemClock,
  type BackgroundBudget,
  type Clock,
  type LinkCacheStats,
  type Recounter,
  type Runner,
  type RuntimeTuning,
  type ValidateEvent,
} from '../runtime/index.ts';
import { createSplitChain, SPLIT_CHAIN_STAGES } from '../runtime/split/index.ts';
import type { AvroSerde } from '../serde/index.ts';
import { topicName } from '../topics/index.ts';
import { EDGE_PIPELINE_STAGES, type EdgePipelineStage } from './edgePipelineStages.ts';

export { EDGE_PIPELINE_STAGES, type EdgePipelineStage };

export interface EdgePipelineOptions {
  readonly kafka: KafkaPort;
  readonly serde: AvroSerde;
  readonly store: TwoLevelMapStore;
  readonly config: EdgestreamConfig;
  readonly logger: Logger;
  readonly stages?: readonly EdgePipelineStage[];
  readonly clock?: Clock;
  readonly tuning?: Partial<RuntimeTuning>;
}

export interface EdgePipeline {
  readonly runners: readonly Runner[];
  readonly recounter?: Recounter;
  /** The budget the recounter and the split chain share (present when either runs). */
  readonly background?: BackgroundBudget;
  /** The split directory the fan-out and repair stages mirror writes by (present when either runs). */
  readonly directory?: SplitDirectory;
  /** Consumer group of each consuming stage. */
  readonly groups: Readonly<Partial<Record<EdgePipelineStage, string>>>;
  /** Counters of the write path's caches that this pipeline has (for metrics). */
  readonly caches: { readonly link?: () => LinkCacheStats; readonly tombstone?: () => CacheStats };
  start(): Promise<void>;
  /** Graceful: every stage finishes its chunk in flight, commits and leaves. */
  stop(): Promise<void>;
  /** Settles once every stage has stopped (the recounter after the consumers); rejects when any stage crashed for good. */
  readonly done: Promise<void>;
}

/**
 * The topology, wired by name in one place: the fan-out processor on the
 * input topic, its repair runner on `<input>.repair` (sharing one link cache), the
 * REMOVE_NODE cascade runner, the degree recounter, and the wide-partition chain
 * (planner, splitter, verifier). Fan-out and repair write through the split
 * mirror, so a partition being split keeps its split layout current.
 */
export function createEdgePipeline(opts: EdgePipelineOptions): EdgePipeline {
  const stages = new Set(opts.stages ?? EDGE_PIPELINE_STAGES);
  const { config } = opts;
  const validate: ValidateEvent<EdgeMutation> = (event, at) => validateEdgeMutation(event, config, at);
  const fanOut = createFanOutProcessor(config);
  const linkCache = config.runtime.linkCacheEntries > 0 ? createLinkCache({ entries: config.runtime.linkCacheEntries }) : false;
  // Fan-out and repair may read node tombstones from a short-lived cache (see the config's
  // safety rule); the cascade's gate and the recounter always read the store.
  const writes = stages.has('fanout') || stages.has('repair');
  const splittable = splittableNamespaces(config.edgeTypes);
  const directory = writes
    ? createConfiguredSplitDirectory(opts.store, config, (err, { ageMs, stale }) =>
      opts.logger.warn({ err, age_ms: ageMs, stale }, stale ? 'split directory reload failed; stale: writes of splittable partitions go to repair' : 'split directory reload failed; the previous one keeps serving'))
    : undefined;
  // Fan-out and repair share one stack (link cache → tombstone cache → split mirror → store).
  const fanOutStore = composeProcessorStore({
    store: opts.store,
    ...(directory ? { splitMirror: { directory, namespaces: new Set(splittable.keys()) } } : {}),
    ...(writes && config.runtime.tombstoneCacheTtlMs > 0
      ? { tombstoneCache: { namespaces: [NODE_TOMBSTONES_NAMESPACE], ttlMs: config.runtime.tombstoneCacheTtlMs, maxEntries: 200_000 } }
      : {}),
    ...(linkCache ? { linkCache } : {}),
  });
  const common = {
    kafka: opts.kafka,
    serde: opts.serde,
    store: opts.store,
    config,
    logger: opts.logger,
    schema: knownSchemas.EdgeMutation,
    validate,
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.tuning ? { tuning: opts.tuning } : {}),
  };
  const runners: Runner[] = [];
  const groups: Partial<Record<EdgePipelineStage, string>> = {};
  const add = (stage: EdgePipelineStage, runner: Runner) => {
    runners.push(runner);
    groups[stage] = runner.groupId;
  };
  if (stages.has('fanout')) add('fanout', createProcessorRuntime({ ...common, store: fanOutStore, processor: fanOut }));
  if (stages.has('repair')) add('repair', createRepairRunner({ ...common, store: fanOutStore, processor: fanOut }));
  if (stages.has('cascade')) {
    const logic = createNodeRemovalCascade({
      edgeTypes: config.edgeTypes,
      maxMutationIdBytes: config.limits.maxMutationIdBytes,
      cascadeSettleMs: config.runtime.cascadeSettleMs,
    });
    // The fan-out writes the node tombstone the cascade waits for, from the same input partitions.
    add('cascade', createCascadeRunner({ ...common, logic, upstreamGroupId: `${config.topics.prefix}${fanOut.name}` }));
  }
  const chainStages = SPLIT_CHAIN_STAGES.filter((st) => stages.has(st));
  // Projections (recount, split chain) yield to the fan-out's writes and the server's reads.
  const background = stages.has('recount') || chainStages.length > 0 ? createConfiguredBackgroundBudget(opts.store, config, opts.clock ?? systemClock) : undefined;
  const backgroundStore = background ? budgetedStore(opts.store, background) : opts.store;
  const chain = createSplitChain({ kafka: opts.kafka, serde: opts.serde, store: backgroundStore, config, logger: opts.logger, stages: chainStages, ...(opts.clock ? { clock: opts.clock } : {}), ...(opts.tuning ? { tuning: opts.tuning } : {}) });
  for (const [stage, runner] of chain) add(stage, runner);
  // Recounter instances divide the degree_dirty shards by their group's assignment of the input topic's partitions.
  const ownership = stages.has('recount')
    ? createShardOwnership({
        kafka: opts.kafka,
        groupId: recounterGroup(config),
        topic: topicName(config.topics.prefix, 'edge-mutations'),
        markPartitions: degreeRecountLogic.markPartitions,
        logger: opts.logger,
        sessionTimeoutMs: config.runtime.sessionTimeoutMs,
      })
    : undefined;
  const recounter = ownership
    ? createRecounter({
        store: backgroundStore,
        logic: degreeRecountLogic,
        owner: ownership,
        logger: opts.logger,
        intervalMs: config.runtime.recountIntervalMs,
        mode: config.runtime.recountMode,
        marksPerRound: config.runtime.recountMarksPerRound,
        intentHoldMs: recountIntentHoldMs(config.runtime),
        ...(opts.clock ? { clock: opts.clock } : {}),
      })
    : undefined;
  let recountingStopped: Promise<void> | undefined;
  const stopRecounting = (): Promise<void> => (recountingStopped ??= (async () => {
    await recounter?.stop();
    await ownership?.stop();
  })());
  let stopRequested = (): void => {};
  const stopping = new Promise<void>((resolve) => (stopRequested = resolve));
  return {
    runners,
    ...(recounter ? { recounter } : {}),
    ...(background ? { background } : {}),
    ...(directory ? { directory } : {}),
    groups,
    caches: {
      ...(writes && linkCache ? { link: () => linkCache.stats() } : {}),
      ...(fanOutStore.tombstoneCacheStats ? { tombstone: fanOutStore.tombstoneCacheStats } : {}),
    },
    async start() {
      await directory?.start();
      background?.start();
      await Promise.all([...runners.map((r) => r.start()), ownership?.start()]);
      recounter?.start();
    },
    async stop() {
      stopRequested();
      await Promise.all([...runners.map((r) => r.stop()), stopRecounting()]);
      directory?.stop();
      background?.stop();
    },
    // After the consumers, the recounter too: a caller closes the store once `done` settles, and a round
    // still in flight then failed on the closed store (an unhandled rejection exited the process with 1).
    done: (runners.length > 0 ? Promise.all(runners.map((r) => r.done)) : stopping).finally(stopRecounting).then(() => undefined),
  };
}

/** The group recounter instances join to divide the degree_dirty shards (it consumes nothing, so `lag` leaves it out). */
export function recounterGroup(config: EdgestreamConfig): string {
  return `${config.topics.prefix}recounter`;
}

export { edgePipelineGroups } from './edgePipelineGroups.ts';
