// The plan → split → verify chain's pure logic (docs/architecture.md §6); the runtime in streams/runtime/split does the I/O.
export { CHECKSUM_BLOCK_ROWS, ChainChecksum, cellBytes, encodeCanonicalCell, type ChecksumState } from './chainChecksum.ts';
export { chooseBuckets, foldPlanPage, MAX_SAMPLES, START_PLAN, type BucketChoice, type PlanProgress } from './planProgress.ts';
export { copyWrites } from './copyWrites.ts';
export { compareCells, type KeyVerdict } from './compareCells.ts';
export {
  nextStamps,
  plannerDecision,
  planningRecord,
  splitterDecision,
  verifierDecision,
  type PlannerDecision,
  type SplitterDecision,
  type VerifierDecision,
} from './splitLifecycle.ts';
