import { edgePipelineGroups } from '../../streams/topology/edgePipelineGroups.ts';
import { createEdgeProducer } from '../../streams/producer/index.ts';
import { createAvroSerde, subjectFor } from '../../streams/serde/index.ts';
import { stopOnSignals } from '../../streams/runtime/index.ts';
import { knownSchemas } from '../../schemas/index.ts';
import { createMetricsRegistry, createReadMetrics, registerSplitDirectoryMetrics } from '../../metrics/index.ts';
import { createConsistencyGate, createEdgeServer, createServerMetrics, fetchOffsetSnapshot, type EdgeServer, type ReadinessCheck } from '../../server/index.ts';
import type { CommandContext } from '../commandContext.ts';
import { checkConnections } from '../connectionCheck.ts';
import { openReader } from '../openReader.ts';

export interface ServeFlags {
  readonly port?: number;
  readonly host?: string;
}

/** A listening server and how to stop it. */
export interface RunningService {
  readonly url: string;
  readonly server: EdgeServer;
  /** Drains (at most `server.shutdownGraceMs`, then cuts the remaining connections), flushes the producer, closes the clients. */
  stop(): Promise<void>;
}

/**
 * Opens what the server routes over (the split-aware reader, the producer, an
 * admin client for the consistency gate), builds the server and listens.
 * Everything opened is closed again if listening fails.
 */
export async function startEdgeService(ctx: CommandContext, flags: ServeFlags): Promise<RunningService> {
  const { config, logger } = ctx;
  await checkConnections(ctx);
  const limits = config.server;
  // One registry for the server's, the reader's and the split directory's series: one scrape shows them all.
  const registry = createMetricsRegistry();
  const readMetrics = createReadMetrics(registry);
  const opened = await openReader(ctx, { observer: readMetrics.observer }); // the split directory is loaded before the first request
  registerSplitDirectoryMetrics(registry, opened.serving.directory);
  const producer = createEdgeProducer({ kafka: await ctx.kafka(), serde: createAvroSerde({ registry: await ctx.registry() }), config });
  const admin = (await ctx.kafka()).admin();
  const release = async (): Promise<void> => {
    await producer.close();
    await opened.close();
    await admin.disconnect();
  };
  try {
    await admin.connect();
    const groups = edgePipelineGroups(config);
    const fanOut = groups.find((g) => g.stage === 'fanout');
    const repair = groups.find((g) => g.stage === 'repair');
    if (!fanOut || !repair) throw new Error('the pipeline declares no fan-out or repair group');
    const watched = { inputTopic: fanOut.topic, fanOutGroup: fanOut.group, repairTopic: repair.topic, repairGroup: repair.group };
    const gate = createConsistencyGate({ fetch: () => fetchOffsetSnapshot(admin, watched), pollIntervalMs: limits.offsetPollIntervalMs, maxWaiters: limits.maxTokenWaiters, logger });
    const probeType = config.edgeTypes[0]?.name ?? '';
    const readiness: ReadinessCheck[] = [
      { name: 'kafka', check: async () => void (await admin.fetchTopicOffsets(watched.inputTopic)) },
      { name: 'schemaRegistry', check: async () => void (await (await ctx.registry()).getLatestSchemaId(subjectFor(watched.inputTopic, knownSchemas.EdgeMutation))) },
      { name: 'cassandra', check: async () => void (await opened.reader.edge(probeType, '__readyz__', '__readyz__')) },
      {
        name: 'splitDirectory',
        check: async () => {
          if (opened.serving.directory.stats.refreshes === 0) throw new Error('not loaded yet');
        },
      },
    ];
    const server = await createEdgeServer({ reader: opened.reader, producer, gate, readiness, limits, edgeTypes: config.edgeTypes.map((t) => t.name), logger, metrics: createServerMetrics(registry) });
    const url = await server.listen(flags.port ?? limits.port, flags.host ?? limits.host);
    logger.info({ url, topic: watched.inputTopic }, 'serving');
    return {
      url,
      server,
      async stop() {
        let timer: NodeJS.Timeout | undefined;
        const grace = new Promise<'cut'>((resolve) => (timer = setTimeout(() => resolve('cut'), limits.shutdownGraceMs)));
        const outcome = await Promise.race([server.close().then(() => 'drained' as const), grace]);
        clearTimeout(timer);
        if (outcome === 'cut') {
          logger.warn({ graceMs: limits.shutdownGraceMs }, 'requests still in flight after the grace period; closing their connections');
          server.app.server.closeAllConnections();
        }
        logger.info({ outcome }, 'stopped serving; flushing the producer and closing clients');
        await release();
      },
    };
  } catch (e) {
    await release().catch(() => undefined);
    throw e;
  }
}

/** `edgestream serve`: the HTTP API until SIGTERM/SIGINT, then a graceful stop (stop accepting, drain, flush, close). */
export async function serveCommand(ctx: CommandContext, flags: ServeFlags): Promise<void> {
  const service = await startEdgeService(ctx, flags);
  const stopped = new Promise<unknown>((resolve) => stopOnSignals([service], { logger: ctx.logger, onStopped: resolve }));
  console.log(`listening on ${service.url}`);
  const error = await stopped;
  if (error) throw error;
}
