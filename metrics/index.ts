// Public surface of metrics/: Prometheus series (prom-client) over the hooks the lower layers expose.
// A processor: createMetricsRegistry → registerRuntimeMetrics, registerCacheMetrics, registerSplitDirectoryMetrics,
// createLagPoller → startMetricsServer (cli/openProcessorMetrics.ts). A reader: createReadMetrics(registry).observer
// into createEdgeReader, registerSplitDirectoryMetrics for its serving directory, and `registry.metrics()` on a route.
export { createMetricsRegistry } from './createMetricsRegistry.ts';
export { registerRuntimeMetrics, type StageRuntime } from './registerRuntimeMetrics.ts';
export { linkCacheAsCacheStats, registerCacheMetrics, type CacheName } from './registerCacheMetrics.ts';
export { registerSplitDirectoryMetrics } from './registerSplitDirectoryMetrics.ts';
export { registerBackgroundMetrics } from './registerBackgroundMetrics.ts';
export { registerRecounterMetrics } from './registerRecounterMetrics.ts';
export { createLagPoller, type LagPoller, type LagPollerOptions, type StageLag } from './createLagPoller.ts';
export { createReadMetrics, type ReadMetrics } from './createReadMetrics.ts';
export { startMetricsServer, type MetricsServer } from './startMetricsServer.ts';
export { snapshotCounter, snapshotGauge, type LabelledValue, type SnapshotMetricSpec } from './snapshotMetrics.ts';
