// Public surface of processors/: the processor contract and each stage's logic.
export type { EventProcessor, ReadRequest, ReadResults, ProcessContext, Emit, LogicalTopic, ProcessorOutput, FollowUpWrite } from './contract/EventProcessor.ts';
export { allWrites, writeWaves, NO_OUTPUT } from './contract/EventProcessor.ts';
export { clearPartition, isClearingMutation, type ClearingMutation } from './contract/ClearingMutation.ts';
export { createFanOutProcessor, type FanOutConfig } from './fanout/createFanOutProcessor.ts';
export { cascadeEventsForPage, type CascadeOptions } from './cascade/cascadeEventsForPage.ts';
export { cascadeMutationId } from './cascade/cascadeMutationId.ts';
export { countActiveLinks } from './counts/countActiveLinks.ts';
export { recountTargetOf, type RecountTarget } from './counts/recountTargetOf.ts';
export { createNodeRemovalCascade, type NodeRemovalCascade, type NodeRemovalCascadeOptions } from './cascade/createNodeRemovalCascade.ts';
export { degreeRecountLogic, type DegreeRecountLogic } from './counts/degreeRecountLogic.ts';
