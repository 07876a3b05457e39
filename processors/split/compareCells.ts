import { bytesEqual, type Cell } from '../../sinks/store/index.ts';

/**
 * The verifier's view of one key, compared like with like: the original's
 * cell and the split's cell as read in the same merged walk, against the
 * verification frontier (µs). A key written after the frontier on either side
 * is `moved`: a write that arrived during the verification, left out of both
 * checksums. Otherwise both sides must hold the same cell (or both none).
 */
export type KeyVerdict = 'equal' | 'moved' | 'differs';

export function compareCells(original: Cell | undefined, split: Cell | undefined, frontier: bigint): KeyVerdict {
  if ((original !== undefined && original.writeTime > frontier) || (split !== undefined && split.writeTime > frontier)) return 'moved';
  if (original === undefined || split === undefined) return original === split ? 'equal' : 'differs';
  return original.writeTime === split.writeTime && bytesEqual(original.value, split.value) ? 'equal' : 'differs';
}
