// The wide-partition chain's runtime: planner, splitter and verifier runners (docs/architecture.md §6).
export { createSplitChain, SPLIT_CHAIN_STAGES, SPLIT_STAGE_GROUPS, SPLIT_STAGE_INPUTS, type SplitChainOptions, type SplitChainStage } from './createSplitChain.ts';
export { createSplitStageRunner, type SplitStageRunnerOptions, type StageContext, type StageOutcome } from './createSplitStageRunner.ts';
export { PLAN_STAGE } from './planPartition.ts';
export { SPLIT_STAGE } from './copyPartition.ts';
