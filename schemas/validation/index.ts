// Semantic validation of decoded events (the step between decoding and processing).
export { validateEdgeMutation, type EdgeMutationValidation } from './validateEdgeMutation.ts';
export { eventTimeProblem, type EventTimeContext } from './eventTimeBounds.ts';
export { edgeMutationSchema, type ValidationConfig } from './edgeMutationSchema.ts';
export { RESERVED_PROPERTY_NAMES } from './textRules.ts';
