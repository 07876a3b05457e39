// Semantic validation of decoded events (the step between decoding and processing).
export { validateEdgeMutation, type EdgeMutationValidation, type EventTimeContext } from './validateEdgeMutation.ts';
export { edgeMutationSchema, type ValidationConfig } from './edgeMutationSchema.ts';
export { RESERVED_PROPERTY_NAMES } from './textRules.ts';
