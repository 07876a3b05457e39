import { FAN_OUT_PROCESSOR_NAME, NODE_REMOVAL_CASCADE_NAME } from '../../processors/processorNames.ts';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { SPLIT_CHAIN_STAGES, SPLIT_STAGE_GROUPS, SPLIT_STAGE_INPUTS, type SplitChainStage } from '../runtime/split/splitChainStages.ts';
import { repairTopicOf, topicName } from '../topics/topicName.ts';
import type { EdgePipelineStage } from './edgePipelineStages.ts';

/**
 * Consumer group and topic of each consuming stage, as `createEdgePipeline` names them (for `lag`).
 * A module of names only: `edgestream lag` lists the groups without loading the pipeline.
 */
export function edgePipelineGroups(config: EdgestreamConfig): { stage: EdgePipelineStage; group: string; topic: string }[] {
  const prefix = config.topics.prefix;
  return [
    { stage: 'fanout', group: `${prefix}${FAN_OUT_PROCESSOR_NAME}`, topic: topicName(prefix, 'edge-mutations') },
    { stage: 'repair', group: `${prefix}${FAN_OUT_PROCESSOR_NAME}.repair`, topic: topicName(prefix, repairTopicOf('edge-mutations')) },
    { stage: 'cascade', group: `${prefix}${NODE_REMOVAL_CASCADE_NAME}`, topic: topicName(prefix, 'edge-mutations') },
    ...SPLIT_CHAIN_STAGES.map((stage: SplitChainStage) => ({ stage, group: `${prefix}${SPLIT_STAGE_GROUPS[stage]}`, topic: topicName(prefix, SPLIT_STAGE_INPUTS[stage]) })),
  ];
}
