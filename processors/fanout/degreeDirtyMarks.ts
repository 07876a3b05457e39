import {
  DEGREE_DIRTY_NAMESPACE,
  degreeDirtyShard,
  degreeIntentShard,
  encodeDegreeDirtyKey,
  type DegreeDirtyMark,
} from '../../sinks/namespaces/index.ts';
import type { Mutation } from '../../sinks/store/TwoLevelMapStore.ts';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import type { FollowUpWrite } from '../contract/EventProcessor.ts';

const EMPTY = new Uint8Array(0);

/** A link op's degree marks: the intents for its first write wave, and the follow-ups that replace them. */
export interface DegreeDirtyMarks {
  /** For `ProcessorOutput.writes`, the first wave, at `stamp`. */
  readonly intents: Mutation[];
  /** For `ProcessorOutput.followUps`: the marks, and the deletion of this attempt's intents. */
  readonly followUps: FollowUpWrite[];
}

/**
 * "Recount these degrees" marks for a link op: (type, out, src) and (type,
 * in, dst), one mutation per shard (docs/architecture.md §5 "Counts").
 *
 * The marks are follow-ups: the runtime stamps them with its wall clock after
 * every write of the event landed (see ProcessorOutput.followUps). Each names
 * its writer, `peer ␀ mutation id` (cascade events share the REMOVE_NODE's id,
 * not the peer), so a redelivery rewrites its own cell and no other write's
 * mark shares it (see degreeDirtyMark).
 *
 * A follow-up is never written for an event whose writes did not all land, so
 * a link cell that landed for an event that then went to repair or the DLQ
 * (or whose process died) would have no mark, and a delta recount, which reads
 * only marked peers, would never count it. So each mark also has an **intent**
 * in the first write wave: keyed and written at `stamp` (the attempt's
 * ProcessContext.wallClockMicros), so each attempt's intent is its own cell
 * whatever the clocks of the hosts that run the attempts, and placed in one
 * shard chosen by the event (degreeIntentShard), so a celebrity's shard gets
 * only the marks of its follows, as before intents. The follow-ups
 * delete the attempt's intents (stamped later, on the same host); the intents
 * of attempts that never finished stay, for the recounter to hold until every
 * write of that attempt landed or was dropped, and then count.
 *
 * `outCount: false` leaves out the src's out-degree mark (and its intent): the
 * op's sole writer read that its forward link keeps its counted state.
 */
export function degreeDirtyMarks(event: EdgeMutation, stamp: bigint, outCount = true): DegreeDirtyMarks {
  const marks = marksOf(event).filter((m) => outCount || m.direction !== 'out');
  const intents = marks.map((m) => ({ ...m, intentStamp: stamp }));
  const intentShard = degreeIntentShard(event.src, event.dst, event.mutation_id);
  const followUps: FollowUpWrite[] = byShard(marks).map(([id, shardMarks]) => ({ namespace: DEGREE_DIRTY_NAMESPACE, id, deletions: [], additions: shardMarks.map(cellOf) }));
  const deletions = intents.map((m) => encodeDegreeDirtyKey(m));
  const same = followUps.find((f) => f.id === intentShard);
  return {
    intents: [{ namespace: DEGREE_DIRTY_NAMESPACE, id: intentShard, writeTime: stamp, deletions: [], additions: intents.map(cellOf) }],
    followUps: same === undefined
      ? [...followUps, { namespace: DEGREE_DIRTY_NAMESPACE, id: intentShard, deletions, additions: [] }]
      : followUps.map((f) => (f === same ? { ...f, deletions } : f)),
  };
}

function marksOf(event: EdgeMutation): DegreeDirtyMark[] {
  return [
    { edgeType: event.edge_type, direction: 'out', vertex: event.src, writer: `${event.dst}\u0000${event.mutation_id}` },
    { edgeType: event.edge_type, direction: 'in', vertex: event.dst, writer: `${event.src}\u0000${event.mutation_id}` },
  ];
}

const cellOf = (mark: DegreeDirtyMark) => ({ key: encodeDegreeDirtyKey(mark), value: EMPTY });

/** `marks` per shard, in first-seen order. */
function byShard(marks: readonly DegreeDirtyMark[]): [string, DegreeDirtyMark[]][] {
  const shards = new Map<string, DegreeDirtyMark[]>();
  for (const mark of marks) {
    const shard = degreeDirtyShard(mark.vertex);
    shards.set(shard, [...(shards.get(shard) ?? []), mark]);
  }
  return [...shards];
}
