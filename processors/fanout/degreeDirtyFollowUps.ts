import {
  DEGREE_DIRTY_NAMESPACE,
  degreeDirtyShard,
  encodeDegreeDirtyKey,
  type DegreeDirtyMark,
} from '../../sinks/namespaces/index.ts';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import type { FollowUpWrite } from '../contract/EventProcessor.ts';

const EMPTY = new Uint8Array(0);

/**
 * "Recount these degrees" marks for a link op: (type, out, src) and (type,
 * in, dst), one follow-up per shard. The runtime stamps them with its wall
 * clock after the link writes landed (see ProcessorOutput.followUps). Each
 * mark names its writer, `peer ␀ mutation id` (cascade events share the
 * REMOVE_NODE's id, not the peer), so a redelivery rewrites its own cell and
 * no other write's mark shares it (see degreeDirtyMark).
 */
export function degreeDirtyFollowUps(event: EdgeMutation): FollowUpWrite[] {
  const marks: DegreeDirtyMark[] = [
    { edgeType: event.edge_type, direction: 'out', vertex: event.src, writer: `${event.dst}\u0000${event.mutation_id}` },
    { edgeType: event.edge_type, direction: 'in', vertex: event.dst, writer: `${event.src}\u0000${event.mutation_id}` },
  ];
  const byShard = new Map<string, Uint8Array[]>();
  for (const mark of marks) {
    const shard = degreeDirtyShard(mark.vertex);
    byShard.set(shard, [...(byShard.get(shard) ?? []), encodeDegreeDirtyKey(mark)]);
  }
  return [...byShard].map(([id, keys]) => ({
    namespace: DEGREE_DIRTY_NAMESPACE,
    id,
    deletions: [],
    additions: keys.map((key) => ({ key, value: EMPTY })),
  }));
}
