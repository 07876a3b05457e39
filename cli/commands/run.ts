import { stopOnSignals } from '../../streams/runtime/index.ts';
import { createEdgePipeline, type EdgePipelineStage } from '../../streams/topology/createEdgePipeline.ts';
import { createAvroSerde } from '../../streams/serde/index.ts';
import type { CommandContext } from '../commandContext.ts';
import { checkConnections } from '../connectionCheck.ts';
import { openProcessorMetrics, type ProcessorMetrics } from '../openProcessorMetrics.ts';

/** `edgestream run`: the stages until SIGTERM/SIGINT, with Prometheus metrics on `--metrics-port` when given. */
export async function runCommand(ctx: CommandContext, stages: readonly EdgePipelineStage[], flags: { readonly metricsPort?: number }): Promise<void> {
  await checkConnections(ctx);
  const store = await ctx.store();
  const pipeline = createEdgePipeline({ kafka: await ctx.kafka(), serde: createAvroSerde({ registry: await ctx.registry(), maxRecordBytes: ctx.config.limits.maxRecordBytes }), store, config: ctx.config, logger: ctx.logger, stages });
  let metrics: ProcessorMetrics | undefined;
  if (flags.metricsPort !== undefined) {
    metrics = await openProcessorMetrics({ port: flags.metricsPort, pipeline, stages, kafka: await ctx.kafka(), store, config: ctx.config, logger: ctx.logger });
  }
  const signals = stopOnSignals([pipeline], { logger: ctx.logger });
  try {
    await pipeline.start();
    await metrics?.start();
    ctx.logger.info({ stages, groups: pipeline.groups }, 'running; SIGTERM or SIGINT stops gracefully');
    await pipeline.done;
  } finally {
    signals();
    await metrics?.close();
  }
}
