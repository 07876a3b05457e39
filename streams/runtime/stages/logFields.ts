import type { ConsumedRecord } from '../../kafka/index.ts';
import type { ChunkSource, PipelineDeps, Slot } from './pipelineTypes.ts';

/** The fields every per-event log line carries: topic, partition, offset and (once decoded) mutation_id. */
export function eventLogFields<E>(source: ChunkSource, slot: Slot<E> | { readonly message: ConsumedRecord; readonly event?: E }, deps?: Pick<PipelineDeps<E>, 'mutationIdOf'>): Record<string, unknown> {
  const mutationId = slot.event !== undefined && deps ? deps.mutationIdOf(slot.event) : undefined;
  return {
    topic: source.topic,
    partition: source.partition,
    offset: slot.message.offset,
    ...(mutationId === undefined ? {} : { mutation_id: mutationId }),
  };
}

/** Default `mutationIdOf`: the `mutation_id` string field of the event, if it has one. */
export function defaultMutationIdOf(event: unknown): string | undefined {
  const id = typeof event === 'object' && event !== null ? (event as { mutation_id?: unknown }).mutation_id : undefined;
  return typeof id === 'string' ? id : undefined;
}
