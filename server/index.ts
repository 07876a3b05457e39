// Public surface of server/: the HTTP API of `edgestream serve` (docs/architecture.md §8).
export { createEdgeServer, type EdgeServer, type EdgeServerOptions } from './createEdgeServer.ts';
export type { ReadinessCheck } from './routes/opsRoutes.ts';
export { createConsistencyGate, type ConsistencyGate, type GateVerdict } from './consistency/createConsistencyGate.ts';
export { fetchOffsetSnapshot, type WatchedGroups } from './consistency/fetchOffsetSnapshot.ts';
export { formatConsistencyToken, parseConsistencyToken } from './consistency/consistencyToken.ts';
export { createServerMetrics, type ServerMetrics } from './metrics/serverMetrics.ts';
export { openApiDocument } from './api/openApiDocument.ts';
