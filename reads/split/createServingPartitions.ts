import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { splittableNamespaces } from '../../sinks/namespaces/index.ts';
import type { TwoLevelMapStore } from '../../sinks/store/index.ts';
import { createConfiguredSplitDirectory, createSplitLayoutValueReader, type SplitDirectory, type SplitDirectoryOptions } from '../../sinks/wide/index.ts';
import { createStorePartitionReader } from '../createStorePartitionReader.ts';
import type { PartitionReader } from '../PartitionReader.ts';
import { createSplitAwarePartitionReader } from './createSplitAwarePartitionReader.ts';

export interface ServingPartitions {
  /** Split-aware: reads a COMPLETED split through its buckets, everything else from the original. */
  readonly partitions: PartitionReader;
  readonly directory: SplitDirectory;
  /** Loads the directory and keeps reloading it every `wide.directoryRefreshMs`. */
  start(): Promise<void>;
  stop(): void;
}

/** The PartitionReader a serving process uses (the CLI read commands, the demo, the benchmark). */
export function createServingPartitions(store: TwoLevelMapStore, config: EdgestreamConfig, hooks: { onFallback?: (info: { namespace: string; partitionId: string; error: unknown }) => void; onRefreshError?: SplitDirectoryOptions['onRefreshError'] } = {}): ServingPartitions {
  const splittable = splittableNamespaces(config.edgeTypes);
  const directory = createConfiguredSplitDirectory(store, config, hooks.onRefreshError);
  const partitions = createSplitAwarePartitionReader({
    original: createStorePartitionReader(store),
    directory,
    layoutReader: createSplitLayoutValueReader(store),
    namespaces: new Set(splittable.keys()),
    multiKeyReadMaxBuckets: config.wide.multiKeyReadMaxBuckets,
    ...(hooks.onFallback ? { onFallback: hooks.onFallback } : {}),
  });
  return { partitions, directory, start: () => directory.start(), stop: () => directory.stop() };
}
