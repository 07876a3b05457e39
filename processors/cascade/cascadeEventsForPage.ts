import { decodeLinkValue, decodeVertexKey, type LinkDirection } from '../../sinks/namespaces/index.ts';
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
 *   ACTIVE or REMOVED: a removed link's bag keeps its properties (REMOVE_EDGE
 *   does not touch them), and a link re-added after the removal still needs
 *   the bag cleared up to the removal's time.
 * - REMOVE_EDGE for every link cell whose time is <= the removal's: ACTIVE
 *   ones must go, and REMOVED ones at the same time are rewritten by the
 *   fan-out into the removal's own REMOVED value (with the node's mutation id),
 *   so the bytes never depend on which path got there first. A link newer
 *   than the removal is untouched by a REMOVE_EDGE at its time, so none is sent.
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
    const id = (kind: 'edge' | 'props'): string =>
      cascadeMutationId(removeNode.mutation_id, edgeType, direction, kind, peer, options.maxMutationIdBytes);
    const common = { edge_type: edgeType, src, dst, event_time: time, properties: {}, property_keys: [] };
    const clearBag: EdgeMutation = { ...common, mutation_id: id('props'), op: EdgeOp.REMOVE_PROPERTIES };
    if (decodeLinkValue(cell.value).time > time) return [clearBag];
    return [{ ...common, mutation_id: id('edge'), op: EdgeOp.REMOVE_EDGE }, clearBag];
  });
}
