import type { Registry } from 'prom-client';
import { WIDE_ROW_STATUSES } from '../sinks/namespaces/index.ts';
import type { SplitDirectory } from '../sinks/wide/index.ts';
import { snapshotCounter, snapshotGauge } from './snapshotMetrics.ts';

/**
 * The split directory's Bloom filter checks and positives (writers check it
 * per mutation of a splittable namespace, readers per read of one), and the
 * wide_rows records of its last full reload by status (every status, 0 when none;
 * the change-log refreshes between two full reloads add ids, not statuses).
 */
export function registerSplitDirectoryMetrics(registry: Registry, directory: Pick<SplitDirectory, 'stats'>): void {
  snapshotCounter(registry, {
    name: 'edgestream_split_directory_checks_total',
    help: 'Bloom filter checks "is this partition split?" (a store without wide_rows records answers without hashing).',
    labelNames: [],
    read: () => [{ labels: {}, value: directory.stats.checks }],
  });
  snapshotCounter(registry, {
    name: 'edgestream_split_directory_positives_total',
    help: 'Bloom filter checks that answered "maybe" (a split partition or a false positive); the record then decides.',
    labelNames: [],
    read: () => [{ labels: {}, value: directory.stats.hits }],
  });
  snapshotGauge(registry, {
    name: 'edgestream_split_partitions',
    help: 'wide_rows records by status at the split directory\'s last full reload (every wide.directoryRebuildMs).',
    labelNames: ['status'],
    read: () => WIDE_ROW_STATUSES.map((status) => ({ labels: { status }, value: directory.stats.byStatus[status] ?? 0 })),
  });
}
