import {
  encodeNodeTombstoneValue,
  NODE_TOMBSTONE_KEY,
  NODE_TOMBSTONES_NAMESPACE,
} from '../../sinks/namespaces/index.ts';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import type { WriteBatch } from './WriteBatch.ts';

/**
 * REMOVE_NODE v: the node tombstone `node_tombstones[v]` at event_time, with
 * the processing wall clock inside so the cascade runner can wait until it
 * has been visible for `cascadeSettleMs`. The cascade does the rest.
 */
export function nodeRemovalWrites(event: EdgeMutation, wallClockMicros: bigint, batch: WriteBatch): void {
  const value = encodeNodeTombstoneValue({ mutationId: event.mutation_id, writtenAtMicros: wallClockMicros });
  batch.put(NODE_TOMBSTONES_NAMESPACE, event.src, event.event_time, NODE_TOMBSTONE_KEY, value);
}
