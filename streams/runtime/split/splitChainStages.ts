/** The split chain's stages, by the name users type (a leaf module: the CLI lists them without loading the chain). */
export const SPLIT_CHAIN_STAGES = ['plan', 'split', 'verify'] as const;
export type SplitChainStage = (typeof SPLIT_CHAIN_STAGES)[number];
