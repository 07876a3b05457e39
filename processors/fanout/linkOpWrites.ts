import {
  edgePropertyBag,
  encodeExactRecentValue,
  encodeLinkValue,
  encodeRecentKey,
  encodeUnverifiedRecentValue,
  encodeVertexKey,
  forwardLinkNamespace,
  forwardRecentNamespace,
  decodeLinkValue,
  LinkState,
  reverseLinkNamespace,
  reverseRecentNamespace,
} from '../../sinks/namespaces/index.ts';
import { compareBytes } from '../../sinks/store/compareBytes.ts';
import type { Cell } from '../../sinks/store/index.ts';
import { EdgeOp, type EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import type { ReadResults } from '../contract/EventProcessor.ts';
import { currentLinkRead } from './fanOutReads.ts';
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
 * The `*_recent` index is kept exact by reading the current forward link
 * first (docs/architecture.md §5 "The exact index"): when the link this op
 * writes wins over it, the current link's entry is deleted (if ACTIVE at
 * another time) and, for an ACTIVE winner, the op's entry written; when it
 * loses, the op writes no entry and deletes the one an earlier attempt of
 * it may have left. The entry is exact (readers trust it) only under
 * `soleWriter`; a repair writes it unverified.
 *
 * The writes go in ordered waves (`waves[i]` is sent only after every write
 * of the waves before it landed), which is what keeps every exact entry
 * backed by its link:
 *  - a link that supersedes an entry goes after that entry's deletion, so
 *    whoever reads the link later (the next op, or a re-run of this one
 *    after a failure or a crash) knows the deletion is done;
 *  - the op's own entries go after both its link cells, so a link op whose
 *    link write failed (to repair, or dead-lettered) leaves no entry that a
 *    later op, reading the link to learn what to delete, could not find.
 * A fresh link is wave 0 and its entries wave 1; a superseding one 1 and 2
 * (a same-cell tie: its unverified entry 0, its links 1).
 *
 * Every visible tombstone also clears the edge's property bag (this
 * direction's, for a directed type) at its time,
 * even one older than the op: a link op that lands after the cascade paged
 * the node's links (a re-add newer than the removal) must still clear the
 * properties the removal covered, which only it can do.
 *
 * Returns whether the op may change which links of its src's forward
 * partition are ACTIVE (see `mayChangeCount`).
 */
export function linkOpWrites(event: EdgeMutation, reads: ReadResults, symmetric: boolean, soleWriter: boolean, waves: LinkOpWaves): boolean {
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
  const current = reads.get(currentLinkRead(type, src, dst));
  const currentLink = current && decodeLinkValue(current.value);
  const currentEntryTime = currentLink?.state === LinkState.ACTIVE ? currentLink.time : undefined;
  const wins = current === undefined || beats(link.writeTime, linkBytes, current);
  // The current link has an entry this op's link replaces: any other bytes (a redelivery of the current link replaces nothing).
  const replaces = wins && currentEntryTime !== undefined && compareBytes(linkBytes, (current as Cell).value) !== 0;
  // The same entry key at the same write time (a tie the link won on its bytes): a deletion there would shadow this op's own entry.
  const sameEntryCell = replaces && link.value.state === LinkState.ACTIVE && link.value.time === currentEntryTime && link.writeTime === (current as Cell).writeTime;
  const supersedes = replaces && !sameEntryCell;
  // Links go after whatever must land first: the deletion of a superseded entry, or the unverified entry of a same-cell tie.
  const [batch, linkWave, entryWave] = supersedes || sameEntryCell ? waves : [waves[0], waves[0], waves[1]];
  linkWave.put(forwardLinkNamespace(type), src, link.writeTime, encodeVertexKey(dst), linkBytes);
  linkWave.put(reverseLinkNamespace(type), dst, link.writeTime, encodeVertexKey(src), linkBytes);

  if (wins) {
    if (supersedes) {
      // At the superseded entry's own write time (its link's): a tombstone wins that tie, and a newer write of the same key stays.
      deleteEntries(event, currentEntryTime as bigint, (current as Cell).writeTime, batch);
    }
    if (link === own && state === LinkState.ACTIVE) {
      // In the tie the entry goes unverified, before the links: unverified wins that tie, so the old exact value is never served beside the new link.
      const exact = soleWriter && !sameEntryCell;
      const entry = exact ? encodeExactRecentValue(linkBytes) : encodeUnverifiedRecentValue(event.mutation_id);
      const wave = sameEntryCell ? batch : entryWave;
      wave.put(forwardRecentNamespace(type), src, time, encodeRecentKey(edgeTime, dst), entry);
      wave.put(reverseRecentNamespace(type), dst, time, encodeRecentKey(edgeTime, src), entry);
    } else if (state === LinkState.ACTIVE) {
      // Lost to a node removal: an earlier attempt's entry goes, at its own write time (the superseded link's, deleted above, may be older).
      deleteEntries(event, edgeTime, time, batch);
    }
  } else if (state === LinkState.ACTIVE && currentEntryTime !== edgeTime) {
    // Lost to a newer link: no entry of this op may stay (an earlier attempt may have written one before the newer op landed).
    deleteEntries(event, edgeTime, time, batch);
  }
  if (link === own && event.op === EdgeOp.ADD_EDGE) {
    for (const { key, value } of propertyAdditions(bag, event.properties)) batch.put(bag.namespace, bag.id, time, key, value);
  }
  for (const t of tombstones) batch.clear(bag.namespace, bag.id, t.time, bag.prefix);
  return mayChangeCount(current, currentLink?.state, wins ? link.value.state : currentLink?.state, link.writeTime, linkBytes);
}

/**
 * Whether writing the link can change the ACTIVE count of the forward
 * partition, judged from the current cell read before it: yes when it turns
 * an ACTIVE link into another state or back, and when the current cell is
 * this very write (an earlier attempt of the op landed it, and the marks that
 * attempt owed may not have). Only a sole writer's read is the cell's state
 * when the write lands (docs/architecture.md §5 "Counts").
 */
function mayChangeCount(current: Cell | undefined, before: LinkState | undefined, after: LinkState | undefined, writeTime: bigint, bytes: Uint8Array): boolean {
  if (current !== undefined && current.writeTime === writeTime && compareBytes(bytes, current.value) === 0) return true;
  return (before === LinkState.ACTIVE) !== (after === LinkState.ACTIVE);
}

/** The waves a link op writes in: deletions and properties, then links that supersede, then entries (see linkOpWrites). */
export type LinkOpWaves = readonly [WriteBatch, WriteBatch, WriteBatch];

/** Whether a write of `bytes` at `writeTime` wins over the stored `cell` (later write time, then greater bytes, as the store decides). */
function beats(writeTime: bigint, bytes: Uint8Array, cell: Cell): boolean {
  return writeTime !== cell.writeTime ? writeTime > cell.writeTime : compareBytes(bytes, cell.value) >= 0;
}

/** Deletes the edge's entries at `edgeTime` in both directions, at `writeTime`. */
function deleteEntries(event: EdgeMutation, edgeTime: bigint, writeTime: bigint, batch: WriteBatch): void {
  const { edge_type: type, src, dst } = event;
  batch.delete(forwardRecentNamespace(type), src, writeTime, encodeRecentKey(edgeTime, dst));
  batch.delete(reverseRecentNamespace(type), dst, writeTime, encodeRecentKey(edgeTime, src));
}
