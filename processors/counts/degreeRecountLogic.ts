import {
  DEGREE_DIRTY_NAMESPACE,
  decodeLinkValue,
  degreeDirtyShards,
  encodeDegreeCount,
  isNamespaceCodecError,
  LinkState,
} from '../../sinks/namespaces/index.ts';
import type { Cell } from '../../sinks/store/TwoLevelMapStore.ts';
import { recountTargetOf, type RecountTarget } from './recountTargetOf.ts';

/**
 * The degrees projection as the recounter (streams/runtime createRecounter,
 * its `RecountLogic`) consumes it: marks live in `degree_dirty` shards, a
 * mark names the link partition to count and the `degrees` cell to write, a
 * link counts when ACTIVE, counts are u64 BE.
 */
export interface DegreeRecountLogic {
  readonly markNamespace: string;
  readonly markPartitions: readonly string[];
  /** The recount a mark asks for, or undefined for a malformed mark (the recounter deletes it uncounted). */
  target(markKey: Uint8Array): RecountTarget | undefined;
  counts(cell: Cell): boolean;
  encodeCount(count: bigint): Uint8Array;
}

export const degreeRecountLogic: DegreeRecountLogic = Object.freeze({
  markNamespace: DEGREE_DIRTY_NAMESPACE,
  markPartitions: degreeDirtyShards(),
  target(markKey: Uint8Array): RecountTarget | undefined {
    try {
      return recountTargetOf(markKey);
    } catch (e) {
      if (isNamespaceCodecError(e)) return undefined;
      throw e;
    }
  },
  // A link cell that does not decode is a bug, not a mark problem: throwing keeps the mark for a later round.
  counts: (cell: Cell): boolean => decodeLinkValue(cell.value).state === LinkState.ACTIVE,
  encodeCount: encodeDegreeCount,
});
