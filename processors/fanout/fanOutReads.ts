import { encodeVertexKey, forwardLinkNamespace, NODE_TOMBSTONE_KEY, NODE_TOMBSTONES_NAMESPACE } from '../../sinks/namespaces/index.ts';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { linkStateOfOp } from './linkStateOfOp.ts';
import type { ReadRequest } from '../contract/EventProcessor.ts';

/** The point read of `vertex`'s node tombstone. */
export const nodeTombstoneRead = (vertex: string): ReadRequest => ({
  namespace: NODE_TOMBSTONES_NAMESPACE,
  id: vertex,
  key: NODE_TOMBSTONE_KEY,
});

/**
 * The point read of the current link of src → dst, from its forward cell
 * `T_out[src][dst]` (written with the same value at the same time as
 * `T_in[dst][src]`), which the op decides on and writes back (exclusive).
 * Read from the forward side: a source's partition is small where a
 * celebrity target's is huge, and a lookup in it costs Cassandra less
 * (`getCells` packs a chunk's scattered cells into few requests anyway).
 */
export const currentLinkRead = (edgeType: string, src: string, dst: string): ReadRequest => ({
  namespace: forwardLinkNamespace(edgeType),
  id: src,
  key: encodeVertexKey(dst),
  exclusive: true,
});

/**
 * What the fan-out reads before processing `event`:
 * - link ops (ADD_EDGE, REMOVE_EDGE, HIDE_EDGE, UNHIDE_EDGE): both
 *   endpoints' node tombstones (one read for a self-loop), so an op older
 *   than a node removal cannot resurrect the edge;
 * - and the current link (its forward cell): the op deletes the `*_recent` entries of
 *   the link it supersedes, and writes none when its own link loses to it
 *   (read before write, as TAO's assoc_add; docs/architecture.md §6);
 * - property ops and REMOVE_NODE: nothing. Property ops need no tombstone
 *   check: the bag clear a node removal causes is a partition tombstone,
 *   which also hides older property writes that arrive after it.
 */
export function fanOutReads(event: EdgeMutation): ReadRequest[] {
  const state = linkStateOfOp(event.op);
  if (state === undefined) return [];
  const reads = [nodeTombstoneRead(event.src)];
  if (event.dst !== event.src) reads.push(nodeTombstoneRead(event.dst));
  reads.push(currentLinkRead(event.edge_type, event.src, event.dst));
  return reads;
}

/** Link ops are applied by the input partition of their src (see EventProcessor.routingKey); other ops anywhere. */
export const fanOutRoutingKey = (event: EdgeMutation): string | undefined => (linkStateOfOp(event.op) === undefined ? undefined : event.src);
