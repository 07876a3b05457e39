import { SPLIT_CHAIN_STAGES } from '../runtime/split/splitChainStages.ts';

/** The stages `edgestream run` can start, by the name users type (a leaf module: `--help` lists them without loading Kafka). */
export const EDGE_PIPELINE_STAGES = ['fanout', 'repair', 'cascade', 'recount', ...SPLIT_CHAIN_STAGES] as const;
export type EdgePipelineStage = (typeof EDGE_PIPELINE_STAGES)[number];
