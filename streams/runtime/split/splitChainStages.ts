import type { LogicalTopic } from '../../../processors/index.ts';

/** The split chain's stages, by the name users type (a leaf module: the CLI lists them without loading the chain). */
export const SPLIT_CHAIN_STAGES = ['plan', 'split', 'verify'] as const;
export type SplitChainStage = (typeof SPLIT_CHAIN_STAGES)[number];

/** Consumer group suffix of each chain stage. */
export const SPLIT_STAGE_GROUPS: Readonly<Record<SplitChainStage, string>> = { plan: 'split-planner', split: 'split-splitter', verify: 'split-verifier' };
/** The topic each chain stage consumes. */
export const SPLIT_STAGE_INPUTS = { plan: 'wide-partitions', split: 'split-plans', verify: 'split-results' } as const satisfies Record<SplitChainStage, LogicalTopic>;
