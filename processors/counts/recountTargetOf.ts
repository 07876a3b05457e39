import {
  decodeDegreeDirtyKey,
  DEGREES_NAMESPACE,
  encodeDegreesKey,
  linkNamespace,
  type DegreeDirtyMark,
} from '../../sinks/namespaces/index.ts';

/** Where a recount reads and where it writes, for one degree_dirty mark. */
export interface RecountTarget extends DegreeDirtyMark {
  /** The link partition to count: `T_out[vertex]` for out, `T_in[vertex]` for in. */
  readonly source: { readonly namespace: string; readonly id: string };
  /** The cell that holds the count: `degrees[vertex][type ␀ dir]`. */
  readonly result: { readonly namespace: string; readonly id: string; readonly key: Uint8Array };
}

/** Parses a degree_dirty key back into (type, direction, vertex) and the partitions a recount touches. */
export function recountTargetOf(markKey: Uint8Array): RecountTarget {
  const mark = decodeDegreeDirtyKey(markKey);
  return {
    ...mark,
    source: { namespace: linkNamespace(mark.edgeType, mark.direction), id: mark.vertex },
    result: { namespace: DEGREES_NAMESPACE, id: mark.vertex, key: encodeDegreesKey(mark.edgeType, mark.direction) },
  };
}
