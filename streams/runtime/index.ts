// Public surface of streams/runtime: the processor runtime, its repair runner, the cascade runner and the recounter.
export { createProcessorRuntime, createRepairRunner, type ProcessorRuntimeOptions } from './createProcessorRuntime.ts';
export { createCascadeRunner, runCascades, type CascadeRunnerOptions, type CascadeDeps } from './createCascadeRunner.ts';
export type { CascadeGate, CascadeGateContext, CascadeLogic, CascadePlan, CascadeSource } from './cascadeTypes.ts';
export { createRecounter, type MarkPartitionOwner, type RecountMode, type RecountLogic, type RecountRound, type RecountTarget, type Recounter, type RecounterOptions, type RecounterStats } from './createRecounter.ts';
export { createShardOwnership, type ShardOwnership, type ShardOwnershipOptions } from './createShardOwnership.ts';
export type { Runner } from './createConsumerLoop.ts';
export type { ValidateEvent, ValidationContext, ValidationResult, RecordOutcome, OutRecord, Publisher } from './pipelineTypes.ts';
export { createLinkCache, type LinkCache, type LinkCacheStats } from './linkCache.ts';
export { createLinkCachingStore, isLinkNamespace } from './createLinkCachingStore.ts';
export { classifyFailure, type Boundary, type Decision } from './classifyFailure.ts';
export { HEADERS, readRepairState, headerString, isReplayForced, type DlqReason, type RepairState } from './headers.ts';
export { backoffMs, type RetryPolicy } from './backoff.ts';
export { systemClock, type Clock } from './Clock.ts';
export { PipelineError, type PipelineErrorCode } from './PipelineError.ts';
export { DEFAULT_EMIT_SCHEMAS, type EmitSchemas } from './emitEncoder.ts';
export { resolveTuning, type RuntimeTuning } from './runtimeTuning.ts';
export type { RuntimeMetricsSnapshot } from './runtimeMetrics.ts';
export { stopOnSignals } from './stopOnSignals.ts';
