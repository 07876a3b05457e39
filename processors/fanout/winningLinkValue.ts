import { encodeLinkValue, type LinkValue } from '../../sinks/namespaces/index.ts';
import { compareBytes } from '../../sinks/store/compareBytes.ts';

/** A link value and the write time (event time) it would be written at. */
export interface LinkWrite {
  readonly writeTime: bigint;
  readonly value: LinkValue;
}

/**
 * The candidate the store would keep if all of `candidates` were written to
 * one cell at their own write times: the latest write time, then the greater
 * encoded bytes (REMOVED > HIDDEN > ACTIVE, then edge time, data, mutation
 * id). Writing only the winner leaves the store exactly as writing them all would.
 */
export function winningLinkValue(candidates: readonly [LinkWrite, ...LinkWrite[]]): LinkWrite {
  return candidates.reduce((best, c) => {
    if (c.writeTime !== best.writeTime) return c.writeTime > best.writeTime ? c : best;
    return compareBytes(encodeLinkValue(c.value), encodeLinkValue(best.value)) > 0 ? c : best;
  });
}
