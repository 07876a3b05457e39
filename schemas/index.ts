// Public surface of schemas/: the generated event types, the known-schema registry and the avsc type factory.
export * from './generated/EdgeMutation.ts';
export * from './generated/WidePartitionDetected.ts';
export * from './generated/SplitTask.ts';
export { knownSchemas } from './knownSchemas.ts';
export { knownSchema, type AvscRecord, type KnownSchema } from './knownSchema.ts';
export { avroTypeFor } from './runtime/avroTypeFor.ts';
export { bigintLongType } from './runtime/bigintLongType.ts';
export * from './validation/index.ts';
export * from './config/edgestreamConfig.ts';
