// Public surface of streams/producer: the producer SDK for edge mutations.
export { createEdgeProducer, type EdgeProducer, type EdgeProducerOptions, type SentMutation } from './createEdgeProducer.ts';
export type { RecordCoordinates } from './recordCoordinates.ts';
export type { CommonArgs, EdgeArgs, EdgeValueArgs, Properties } from './buildMutation.ts';
export { sendEdgeOp, type EdgeOpArgs } from './sendEdgeOp.ts';
export { ProducerError, type ProducerErrorCode } from './ProducerError.ts';
export { createEventClock } from './createEventClock.ts';
export { createWidePartitionPublisher, type WidePartitionPublisher } from './createWidePartitionPublisher.ts';
