import { decodeVertexKey, type LinkDirection } from '../../sinks/namespaces/index.ts';
import type { Cell } from '../../sinks/store/TwoLevelMapStore.ts';
import { EdgeOp, type EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { cascadeMutationId } from './cascadeMutationId.ts';

export interface CascadeOptions {
  /** `limits.maxMutationIdBytes`: cascaded ids are kept within it (see cascadeMutationId). */
  readonly maxMutationIdBytes: number;
}

/**
 * The events the REMOVE_NODE cascade publishes for one page of the removed
 * vertex's links (cells of `T_out[v]` for `out`, `T_in[v]` for `in`), all at
 * the node removal's event time and oriented so `src` is the edge's source:
 *
 * - REMOVE_PROPERTIES with no keys (clear the bag) for **every** link cell,
 *   ACTIVE or REMOVED, oriented like the link so the fan-out clears that
 *   direction's bag only (the shared one of a symmetric type): a removed link's bag keeps its properties (REMOVE_EDGE
 *   does not touch them), and a link re-added after the removal still needs
 *   the bag cleared up to the removal's time.
 * - REMOVE_EDGE for every link cell written at or before the removal's
 *   time: ACTIVE and HIDDEN ones must go, and REMOVED ones at the same time
 *   must end up holding the removal's own REMOVED value. A link newer than the removal is untouched
 *   by a REMOVE_EDGE at the removal's time, so none is sent.
 *
 * The REMOVE_EDGE carries the REMOVE_NODE's own mutation id, not a derived
 * one: the id is part of the REMOVED link value, and the fan-out writes that
 * same value (REMOVED, removal time, node's id) when it rewrites an op that
 * arrives after the node tombstone. With a derived id the link's final bytes
 * would depend on which path got there first. The bag clear's id is stored
 * nowhere, so it gets a distinct derived id (cascadeMutationId) for logs and
 * dead letters.
 *
 * Pure; the runner pages (any page size) and publishes, keyed by each event's src.
 */
export function cascadeEventsForPage(
  removeNode: EdgeMutation,
  edgeType: string,
  direction: LinkDirection,
  cells: readonly Cell[],
  options: CascadeOptions,
): EdgeMutation[] {
  if (removeNode.op !== EdgeOp.REMOVE_NODE) throw new Error(`cascade: expected a REMOVE_NODE, got ${removeNode.op} (${removeNode.mutation_id})`);
  const vertex = removeNode.src;
  const time = removeNode.event_time;
  return cells.flatMap((cell) => {
    const peer = decodeVertexKey(cell.key);
    const [src, dst] = direction === 'out' ? [vertex, peer] : [peer, vertex];
    const common = { edge_type: edgeType, src, dst, event_time: time, properties: {}, property_keys: [] };
    const clearId = cascadeMutationId(removeNode.mutation_id, edgeType, direction, peer, options.maxMutationIdBytes);
    const clearBag: EdgeMutation = { ...common, mutation_id: clearId, op: EdgeOp.REMOVE_PROPERTIES };
    // The write time (event time of the link's last op), not the edge time in the value.
    if (cell.writeTime > time) return [clearBag];
    return [{ ...common, mutation_id: removeNode.mutation_id, op: EdgeOp.REMOVE_EDGE }, clearBag];
  });
}
