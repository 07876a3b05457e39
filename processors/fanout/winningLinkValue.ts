import { encodeLinkValue, type LinkValue } from '../../sinks/namespaces/index.ts';
import { compareBytes } from '../../sinks/store/compareBytes.ts';

/**
 * The candidate the store would keep if all of `candidates` were written to
 * one cell at their own times: the latest time, then the greater encoded
 * bytes (REMOVED beats ACTIVE, then the greater mutation id). Writing only
 * the winner leaves the store exactly as writing them all would.
 */
export function winningLinkValue(candidates: readonly [LinkValue, ...LinkValue[]]): LinkValue {
  return candidates.reduce((best, c) => {
    if (c.time !== best.time) return c.time > best.time ? c : best;
    return compareBytes(encodeLinkValue(c), encodeLinkValue(best)) > 0 ? c : best;
  });
}
