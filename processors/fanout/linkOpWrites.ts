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
} from '../../sinks/namespaces/index.ts';
import { EdgeOp, type EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import type { ReadResults } from '../contract/EventProcessor.ts';
import { forwardLinkRead } from './fanOutReads.ts';
import { propertyAdditions } from './propertyOpWrites.ts';
import { visibleNodeTombstones } from './visibleNodeTombstones.ts';
import { linkStateOfOp } from './linkStateOfOp.ts';
import { winningLinkValue, type LinkWrite } from './winningLinkValue.ts';
import type { WriteBatch } from './WriteBatch.ts';

/**
 * ADD_EDGE, REMOVE_EDGE, HIDE_EDGE and UNHIDE_EDGE (docs/architecture.md §5,
 * "Fan-out semantics").
 *
 * The op's own value is its state (ACTIVE, REMOVED, HIDDEN, ACTIVE again)
 * with the edge time (`edge_time`, else event_time) and `data` it carries,
 * written at event_time: last write wins on event time, and each op writes a
 * whole value of its own, so the winner does not depend on arrival order (an
 * UNHIDE_EDGE without edge_time puts the edge at the front).
 *
 * The link cell gets the winner among the op's own value and a REMOVED value
 * at each visible endpoint tombstone's time, carrying the node removal's
 * mutation id. So an op at or before a node removal becomes "REMOVED at the
 * removal's time", byte-identical to what the cascade writes for the same
 * edge, whatever the arrival order.
 *
 * An ACTIVE winner writes its `*_recent` entry keyed by the edge time (at the
 * event time); an entry at an older edge time stays for readers to skip.
 *
 * Every visible tombstone also clears the edge's property bag (this
 * direction's, for a directed type) at its time,
 * even one older than the op: a link op that lands after the cascade paged
 * the node's links (a re-add newer than the removal) must still clear the
 * properties the removal covered, which only it can do.
 */
export function linkOpWrites(event: EdgeMutation, reads: ReadResults, symmetric: boolean, batch: WriteBatch): void {
  const { edge_type: type, src, dst, event_time: time } = event;
  const state = linkStateOfOp(event.op);
  if (state === undefined) throw new Error(`fan-out: ${event.op} is not a link op (${event.mutation_id})`);
  const edgeTime = event.edge_time ?? time;
  const data = event.data && event.data.length > 0 ? { data: new Uint8Array(event.data) } : {};
  const own: LinkWrite = { writeTime: time, value: { state, time: edgeTime, mutationId: event.mutation_id, ...data } };
  const tombstones = visibleNodeTombstones(reads, src, dst);
  const removals = tombstones.map((t): LinkWrite => ({ writeTime: t.time, value: { state: LinkState.REMOVED, time: t.time, mutationId: t.mutationId } }));
  const link = winningLinkValue([own, ...removals]);

  const bag = edgePropertyBag(type, src, dst, symmetric);
  const linkBytes = encodeLinkValue(link.value);
  batch.put(forwardLinkNamespace(type), src, link.writeTime, encodeVertexKey(dst), linkBytes);
  batch.put(reverseLinkNamespace(type), dst, link.writeTime, encodeVertexKey(src), linkBytes);

  if (link === own && state === LinkState.ACTIVE) {
    const recentValue = Buffer.from(event.mutation_id, 'utf8');
    batch.put(forwardRecentNamespace(type), src, time, encodeRecentKey(edgeTime, dst), recentValue);
    batch.put(reverseRecentNamespace(type), dst, time, encodeRecentKey(edgeTime, src), recentValue);
  }
  if (link === own && event.op === EdgeOp.ADD_EDGE) {
    for (const { key, value } of propertyAdditions(bag, event.properties)) batch.put(bag.namespace, bag.id, time, key, value);
  }
  if (state !== LinkState.ACTIVE) deleteSupersededRecentEntries(event, reads, link.writeTime, batch);
  for (const t of tombstones) batch.clear(bag.namespace, bag.id, t.time, bag.prefix);
}

/**
 * Best effort: the `*_recent` entries of the link this removal or hide
 * supersedes (the forward link it read, if ACTIVE and written no later) are
 * deleted at the op's write time. Entries it does not know of stay; readers
 * skip entries whose link is not ACTIVE with the entry's time.
 */
function deleteSupersededRecentEntries(event: EdgeMutation, reads: ReadResults, supersededAt: bigint, batch: WriteBatch): void {
  const { edge_type: type, src, dst } = event;
  const cell = reads.get(forwardLinkRead(type, src, dst));
  if (cell === undefined) return;
  const current = decodeLinkValue(cell.value);
  if (current.state !== LinkState.ACTIVE || cell.writeTime > supersededAt) return;
  batch.delete(forwardRecentNamespace(type), src, supersededAt, encodeRecentKey(current.time, dst));
  batch.delete(reverseRecentNamespace(type), dst, supersededAt, encodeRecentKey(current.time, src));
}
