import type { KafkaPort } from '../streams/kafka/index.ts';
import type { Logger } from 'pino';
import {
  createLagPoller,
  createMetricsRegistry,
  linkCacheAsCacheStats,
  registerBackgroundMetrics,
  registerCacheMetrics,
  registerRecounterMetrics,
  registerRuntimeMetrics,
  registerSplitDirectoryMetrics,
  startMetricsServer,
  type StageRuntime,
} from '../metrics/index.ts';
import type { EdgestreamConfig } from '../schemas/config/edgestreamConfig.ts';
import type { TwoLevelMapStore } from '../sinks/store/index.ts';
import { createConfiguredSplitDirectory } from '../sinks/wide/index.ts';
import { edgePipelineGroups, type EdgePipeline, type EdgePipelineStage } from '../streams/topology/createEdgePipeline.ts';
import { groupsLag } from './commands/lag.ts';

export interface ProcessorMetrics {
  /** Starts what polls (lag, a split directory of its own); call after the pipeline started. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The metrics of an `edgestream run` process on `--metrics-port`: every consuming
 * stage's runtime counters, the write path's caches, the split directory, the recounter, and the
 * lag of the stages' consumer groups polled every `runtime.lagPollIntervalMs`.
 * The HTTP listener starts here, before the pipeline joins its groups, so a taken
 * port fails the command at once, naming the flag.
 */
export async function openProcessorMetrics(opts: {
  readonly port: number;
  readonly pipeline: EdgePipeline;
  readonly stages: readonly EdgePipelineStage[];
  readonly kafka: KafkaPort;
  readonly store: TwoLevelMapStore;
  readonly config: EdgestreamConfig;
  readonly logger: Logger;
}): Promise<ProcessorMetrics> {
  const { pipeline, config, logger } = opts;
  const registry = createMetricsRegistry();
  const stageOf = new Map(Object.entries(pipeline.groups).map(([stage, group]) => [group, stage]));
  registerRuntimeMetrics(registry, pipeline.runners.map((r): StageRuntime => ({ stage: stageOf.get(r.groupId) ?? r.groupId, metrics: () => r.metrics() })));
  const { link, tombstone } = pipeline.caches;
  registerCacheMetrics(registry, { ...(link ? { link: () => linkCacheAsCacheStats(link()) } : {}), ...(tombstone ? { tombstone } : {}) });
  // Stages that do not write have no directory; one of its own keeps the split-state series current.
  const ownDirectory = pipeline.directory ? undefined : createConfiguredSplitDirectory(opts.store, config, (err) => logger.warn({ err }, 'metrics: split directory reload failed'));
  registerSplitDirectoryMetrics(registry, pipeline.directory ?? ownDirectory!);
  if (pipeline.recounter) registerRecounterMetrics(registry, pipeline.recounter);
  if (pipeline.background) registerBackgroundMetrics(registry, pipeline.background);
  const groups = edgePipelineGroups(config).filter((g) => opts.stages.includes(g.stage));
  const admin = opts.kafka.admin();
  const lag = createLagPoller(registry, {
    intervalMs: config.runtime.lagPollIntervalMs,
    poll: () => groupsLag(admin, groups),
    onError: (err) => logger.warn({ err }, 'metrics: consumer lag poll failed; the lag series keep the previous poll'),
  });

  const server = await startMetricsServer({ registry, port: opts.port }).catch((e: unknown) => {
    throw new Error(`--metrics-port ${opts.port}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  });
  logger.info({ port: server.port, path: '/metrics' }, 'serving metrics');
  return {
    async start() {
      await ownDirectory?.start();
      if (groups.length === 0) return;
      await admin.connect();
      lag.start();
    },
    async close() {
      lag.stop();
      ownDirectory?.stop();
      await Promise.allSettled([server.close(), admin.disconnect()]);
    },
  };
}
