import { edgePipelineGroups } from '../../streams/topology/createEdgePipeline.ts';
import { createEdgeProducer } from '../../streams/producer/index.ts';
import { createAvroSerde, subjectFor } from '../../streams/serde/index.ts';
import { stopOnSignals } from '../../streams/runtime/index.ts';
import { knownSchemas } from '../../schemas/index.ts';
import { createConsistencyGate, createEdgeServer, fetchOffsetSnapshot, type ReadinessCheck } from '../../server/index.ts';
import type { CommandContext } from '../commandContext.ts';
import { openReader } from '../openReader.ts';

export interface ServeFlags {
  readonly port?: number;
  readonly host?: string;
}

/**
 * `edgestream serve`: the HTTP API until SIGTERM/SIGINT. Then: stop accepting,
 * drain the requests in flight (at most `server.shutdownGraceMs`, then the
 * remaining connections are cut), flush the producer, close every client.
 */
export async function serveCommand(ctx: CommandContext, flags: ServeFlags): Promise<void> {
  const { config, logger } = ctx;
  const limits = config.server;
  const opened = await openReader(ctx); // the split directory is loaded before the first request
  const serde = createAvroSerde({ registry: ctx.registry });
  const producer = createEdgeProducer({ kafka: ctx.kafka, serde, config });
  const admin = ctx.kafka.admin();
  try {
    await admin.connect();
    const groups = edgePipelineGroups(config);
    const fanOut = groups.find((g) => g.stage === 'fanout');
    const repair = groups.find((g) => g.stage === 'repair');
    if (!fanOut || !repair) throw new Error('the pipeline declares no fan-out or repair group');
    const watched = { inputTopic: fanOut.topic, fanOutGroup: fanOut.group, repairTopic: repair.topic, repairGroup: repair.group };
    const gate = createConsistencyGate({ fetch: () => fetchOffsetSnapshot(admin, watched), pollIntervalMs: limits.offsetPollIntervalMs, logger });
    const probeType = config.edgeTypes[0]?.name ?? '';
    const readiness: ReadinessCheck[] = [
      { name: 'kafka', check: async () => void (await admin.fetchTopicOffsets(watched.inputTopic)) },
      { name: 'schemaRegistry', check: async () => void (await ctx.registry.getLatestSchemaId(subjectFor(watched.inputTopic, knownSchemas.EdgeMutation))) },
      { name: 'cassandra', check: async () => void (await opened.reader.edge(probeType, '__readyz__', '__readyz__')) },
      {
        name: 'splitDirectory',
        check: async () => {
          if (opened.serving.directory.stats.refreshes === 0) throw new Error('not loaded yet');
        },
      },
    ];
    const server = await createEdgeServer({ reader: opened.reader, producer, gate, readiness, limits, logger });
    const drain = async (): Promise<void> => {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<'cut'>((resolve) => (timer = setTimeout(() => resolve('cut'), limits.shutdownGraceMs)));
      const outcome = await Promise.race([server.close().then(() => 'drained' as const), grace]);
      clearTimeout(timer);
      if (outcome === 'cut') {
        logger.warn({ graceMs: limits.shutdownGraceMs }, 'requests still in flight after the grace period; closing their connections');
        server.app.server.closeAllConnections();
      }
    };
    const stopped = new Promise<unknown>((resolve) => stopOnSignals([{ stop: drain }], { logger, onStopped: resolve }));
    const url = await server.listen(flags.port ?? limits.port, flags.host ?? limits.host);
    logger.info({ url, topic: watched.inputTopic }, 'serving; SIGTERM or SIGINT drains and stops');
    console.log(`listening on ${url}`);
    const error = await stopped;
    if (error) throw error;
    logger.info('drained; flushing the producer and closing clients');
  } finally {
    await producer.close();
    await opened.close();
    await admin.disconnect();
  }
}
