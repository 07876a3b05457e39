import {
  decodeLinkValue,
  edgePropertyBag,
  encodeLinkValue,
  encodeRecentKey,
  encodeVertexKey,
  forwardLinkNamespace,
  forwardRecentNamespace,
  LinkState,
  reverseLinkNamespace,
  reverseRecentNamespace,
  type LinkValue,
} from '../../sinks/namespaces/index.ts';
import { EdgeOp, type EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import type { ReadResults } from '../contract/EventProcessor.ts';
import { forwardLinkRead } from './fanOutReads.ts';
import { propertyAdditions } from './propertyOpWrites.ts';
import { visibleNodeTombstones } from './visibleNodeTombstones.ts';
import { winningLinkValue } from './winningLinkValue.ts';
import type { WriteBatch } from './WriteBatch.ts';

/**
 * ADD_EDGE and REMOVE_EDGE (docs/architecture.md §5, "Fan-out semantics").
 *
 * The link cell gets the winner among the op's own value (ACTIVE or REMOVED
 * at event_time) and a REMOVED value at each visible endpoint tombstone's
 * time, carrying the node removal's mutation id. So an op at or before a node
 * removal becomes "REMOVED at the removal's time", byte-identical to what the
 * cascade writes for the same edge, whatever the arrival order.
 *
 * Every visible tombstone also clears the edge's property bag (this
 * direction's, for a directed type) at its time,
 * even one older than the op: a link op that lands after the cascade paged
 * the node's links (a re-add newer than the removal) must still clear the
 * properties the removal covered, which only it can do.
 */
export function linkOpWrites(event: EdgeMutation, reads: ReadResults, symmetric: boolean, batch: WriteBatch): void {
  const { edge_type: type, src, dst, event_time: time } = event;
  const adding = event.op === EdgeOp.ADD_EDGE;
  const own: LinkValue = { state: adding ? LinkState.ACTIVE : LinkState.REMOVED, time, mutationId: event.mutation_id };
  const tombstones = visibleNodeTombstones(reads, src, dst);
  const removals = tombstones.map((t): LinkValue => ({ state: LinkState.REMOVED, time: t.time, mutationId: t.mutationId }));
  const link = winningLinkValue([own, ...removals]);

  const bag = edgePropertyBag(type, src, dst, symmetric);
  const linkBytes = encodeLinkValue(link);
  batch.put(forwardLinkNamespace(type), src, link.time, encodeVertexKey(dst), linkBytes);
  batch.put(reverseLinkNamespace(type), dst, link.time, encodeVertexKey(src), linkBytes);

  if (link === own && adding) {
    const recentValue = Buffer.from(event.mutation_id, 'utf8');
    batch.put(forwardRecentNamespace(type), src, time, encodeRecentKey(time, dst), recentValue);
    batch.put(reverseRecentNamespace(type), dst, time, encodeRecentKey(time, src), recentValue);
    for (const { key, value } of propertyAdditions(bag, event.properties)) batch.put(bag.namespace, bag.id, time, key, value);
  }
  if (!adding) deleteSupersededRecentEntries(event, reads, link.time, batch);
  for (const t of tombstones) batch.clear(bag.namespace, bag.id, t.time, bag.prefix);
}

/**
 * Best effort: the `*_recent` entries of the link this removal supersedes
 * (the forward link it read, if ACTIVE and not newer) are deleted at the
 * removal's time. Entries it does not know of stay; readers skip entries
 * whose link is not ACTIVE with the same time.
 */
function deleteSupersededRecentEntries(event: EdgeMutation, reads: ReadResults, removedAt: bigint, batch: WriteBatch): void {
  const { edge_type: type, src, dst } = event;
  const cell = reads.get(forwardLinkRead(type, src, dst));
  if (cell === undefined) return;
  const current = decodeLinkValue(cell.value);
  if (current.state !== LinkState.ACTIVE || current.time > removedAt) return;
  batch.delete(forwardRecentNamespace(type), src, removedAt, encodeRecentKey(current.time, dst));
  batch.delete(reverseRecentNamespace(type), dst, removedAt, encodeRecentKey(current.time, src));
}
