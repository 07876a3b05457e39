import { createEdgeReader, createReadCounters, type EdgeReader, type ReadObserver } from '../reads/index.ts';
import { createServingPartitions, type ServingPartitions } from '../reads/split/createServingPartitions.ts';
import type { WidePartitionPublisher } from '../streams/producer/index.ts';
import type { CommandContext } from './commandContext.ts';

export interface OpenedReader {
  readonly reader: EdgeReader;
  readonly serving: ServingPartitions;
  /** Stops the split directory and flushes any wide-partition event. */
  close(): Promise<void>;
}

/**
 * The one place the CLI builds its EdgeReader: split-aware partitions (the
 * directory's Bloom filter loaded before the first read) and read counters
 * that publish wide partitions to `<prefix>wide-partitions`. A one-shot
 * command's counters see only its own reads, so only a big read (a full scan
 * of a celebrity) crosses the threshold.
 */
export async function openReader(ctx: CommandContext, opts: { readonly observer?: ReadObserver } = {}): Promise<OpenedReader> {
  const store = await ctx.store();
  const serving = createServingPartitions(store, ctx.config, {
    onFallback: ({ namespace, partitionId, error }) => ctx.logger.warn({ namespace, partition_id: partitionId, err: error }, 'split read failed; read the original'),
    onRefreshError: (err, { ageMs, stale }) => ctx.logger.warn({ err, age_ms: ageMs, stale }, stale ? 'split directory reload failed; stale: reads go to the original partitions' : 'split directory reload failed'),
  });
  await serving.start();
  // Made when a read first crosses the threshold: most one-shot reads never do, and need no producer or registry.
  let publisher: Promise<WidePartitionPublisher> | undefined;
  const openPublisher = async (): Promise<WidePartitionPublisher> => {
    const [{ createWidePartitionPublisher }, { createAvroSerde }] = await Promise.all([import('../streams/producer/index.ts'), import('../streams/serde/index.ts')]);
    return createWidePartitionPublisher({ kafka: await ctx.kafka(), serde: createAvroSerde({ registry: await ctx.registry() }), config: ctx.config, logger: ctx.logger });
  };
  const counters = createReadCounters({
    wide: ctx.config.wide,
    onWide: (event) => {
      (publisher ??= openPublisher()).then((p) => p.publish(event), (err: unknown) => ctx.logger.warn({ err, namespace: event.namespace, partition_id: event.partition_id }, 'wide partition not published: the publisher did not open'));
    },
  });
  return {
    reader: createEdgeReader({ partitions: serving.partitions, config: ctx.config, counters, ...(opts.observer ? { observer: opts.observer } : {}) }),
    serving,
    async close() {
      serving.stop();
      if (publisher) await (await publisher.catch(() => undefined))?.close();
    },
  };
}
