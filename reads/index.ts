// Public surface of reads/: the edge reader, its read port and the read-side width counters (reads/README.md).
export { createEdgeReader, type EdgeReaderOptions } from './createEdgeReader.ts';
export type {
  EdgeGet,
  EdgeLink,
  EdgesOptions,
  EdgeReader,
  Neighbour,
  NeighbourOrder,
  NeighbourPage,
  NeighbourPageOptions,
  PropsOptions,
  ReadBounds,
  TimeRangeOptions,
  Traversal,
  TraversalHop,
  TraversalHopResult,
  TraversalHopStats,
  TraversalOptions,
  TraversalPartial,
} from './EdgeReader.ts';
export { ReadArgumentError, isReadArgumentError } from './ReadArgumentError.ts';
export { ReadLimitError, isReadLimitError } from './ReadLimitError.ts';
export type { PartialReason, StopReason } from './readBudget.ts';
export { MAX_EDGES_PER_GET, MAX_HOPS, MAX_PAGE_LIMIT, MAX_RANGE_LIMIT, MAX_PER_HOP_CAP, MAX_PROPERTY_KEYS, MAX_TRAVERSAL_CONCURRENCY, MAX_TRAVERSAL_IN_FLIGHT } from './readArguments.ts';
export type { PartitionPage, PartitionPageQuery, PartitionReader, PartitionScanPage, PartitionScanQuery, ScanPosition } from './PartitionReader.ts';
export { createStorePartitionReader } from './createStorePartitionReader.ts';
export { NO_READ_COUNTERS, type OnWidePartition, type ReadCounters, type ReadSample } from './ReadCounters.ts';
export { createReadCounters, type ReadCountersOptions } from './createReadCounters.ts';
export { NO_READ_OBSERVER, type ReadObservation, type ReadObserver, type ReadOperation } from './ReadObserver.ts';
