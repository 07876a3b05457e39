import {
  DEGREE_DIRTY_NAMESPACE,
  DEGREE_MIRROR_NAMESPACE,
  decodeDegreeCount,
  decodeDegreeDirtyKey,
  degreeDirtyShards,
  degreeDirtyTargetPrefix,
  degreeFlagsPrefix,
  degreeGroupBucketsPrefix,
  degreeGroupsPrefix,
  encodeDegreeBucketKey,
  encodeDegreeCount,
  encodeDegreeFlagKey,
  encodeDegreeGroupKey,
  encodeDegreeMirrorMarkerKey,
  encodeVertexKey,
  isActiveLinkValue,
  isNamespaceCodecError,
} from '../../sinks/namespaces/index.ts';
import type { Cell } from '../../sinks/store/TwoLevelMapStore.ts';
import { recountTargetOf, type RecountTarget } from './recountTargetOf.ts';

/** Where a peer's flag, bucket count and group count live (the recounter's MirrorBucket). */
export interface MirrorBucket {
  readonly countKey: Uint8Array;
  readonly flagsPrefix: Uint8Array;
  readonly group: { readonly countKey: Uint8Array; readonly bucketsPrefix: Uint8Array };
}

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
  /** Whether a mark is an intent (written before its link cells; see degreeDirtyMark). */
  isIntent(markKey: Uint8Array): boolean;
  /** The prefix of the target's marks that name a writer (a round sweeps a target it found many marks of). */
  markPrefix(markKey: Uint8Array): Uint8Array | undefined;
  /** The delta recounter's mirror of `T_out[v]` / `T_in[v]` in `degree_mirror[v]` (see degreeMirror). */
  readonly mirror: DegreeMirrorLogic;
}

export interface DegreeMirrorLogic {
  readonly namespace: string;
  /** The peer a mark names (its link key), or undefined for a mark written before marks named one. */
  changedKey(markKey: Uint8Array): Uint8Array | undefined;
  flagKey(target: RecountTarget, peer: Uint8Array): Uint8Array;
  bucketOf(target: RecountTarget, peer: Uint8Array): MirrorBucket;
  groupsPrefix(target: RecountTarget): Uint8Array;
  markerKey(target: RecountTarget): Uint8Array;
  decodeCount(bytes: Uint8Array): bigint;
}

const mirror: DegreeMirrorLogic = Object.freeze({
  namespace: DEGREE_MIRROR_NAMESPACE,
  changedKey(markKey: Uint8Array): Uint8Array | undefined {
    const writer = recountTargetOf(markKey).writer;
    // The writer is `peer ␀ mutation id`; vertex ids never contain U+0000.
    return writer === undefined ? undefined : encodeVertexKey(writer.split('\u0000')[0] as string);
  },
  flagKey: (t: RecountTarget, peer: Uint8Array) => encodeDegreeFlagKey(t.edgeType, t.direction, peer),
  bucketOf: (t: RecountTarget, peer: Uint8Array): MirrorBucket => ({
    countKey: encodeDegreeBucketKey(t.edgeType, t.direction, peer),
    flagsPrefix: degreeFlagsPrefix(t.edgeType, t.direction, peer),
    group: { countKey: encodeDegreeGroupKey(t.edgeType, t.direction, peer), bucketsPrefix: degreeGroupBucketsPrefix(t.edgeType, t.direction, peer) },
  }),
  groupsPrefix: (t: RecountTarget) => degreeGroupsPrefix(t.edgeType, t.direction),
  markerKey: (t: RecountTarget) => encodeDegreeMirrorMarkerKey(t.edgeType, t.direction),
  decodeCount: decodeDegreeCount,
});

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
  // From the header alone, as traversals read it; a cell whose header does not decode is a bug, not a mark problem: throwing keeps the mark.
  counts: (cell: Cell): boolean => isActiveLinkValue(cell.value),
  encodeCount: encodeDegreeCount,
  isIntent(markKey: Uint8Array): boolean {
    try {
      return recountTargetOf(markKey).intentStamp !== undefined;
    } catch (e) {
      if (isNamespaceCodecError(e)) return false;
      throw e;
    }
  },
  markPrefix(markKey: Uint8Array): Uint8Array | undefined {
    try {
      return degreeDirtyTargetPrefix(decodeDegreeDirtyKey(markKey));
    } catch (e) {
      if (isNamespaceCodecError(e)) return undefined;
      throw e;
    }
  },
  mirror,
});
