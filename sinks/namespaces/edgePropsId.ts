import { compareBytes } from '../store/compareBytes.ts';

/**
 * The partition id of an edge's property bag: `min(a, b) ␀ max(a, b)` by
 * UTF-8 byte order, so a→b and b→a live in one partition, found from either
 * side; their bags are kept apart by a direction prefix in the key
 * (edgePropertyBag). Unambiguous because vertex ids never contain U+0000
 * (schemas/validation rejects them).
 */
export const EDGE_ID_SEPARATOR = '\u0000';

export function edgePropsId(a: string, b: string): string {
  const aFirst = compareBytes(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')) <= 0;
  return aFirst ? `${a}${EDGE_ID_SEPARATOR}${b}` : `${b}${EDGE_ID_SEPARATOR}${a}`;
}
