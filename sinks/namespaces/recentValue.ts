import { decodeLinkValue, LinkState, type LinkValue } from './linkValue.ts';
import { NamespaceCodecError } from './NamespaceCodecError.ts';
import { decodeUtf8, encodeUtf8 } from './utf8Text.ts';

/**
 * The value of a `*_recent` entry, in one of two forms:
 *
 *   exact:      [0x00][the ACTIVE link value it indexes (linkValue v2)]
 *   unverified: [mutation id: UTF-8] (never starts with 0x00: ids exclude U+0000)
 *
 * An exact entry was written by the one fan-out that applies its source's link
 * ops, after it read the link: it knows every older entry of the edge is
 * deleted, so a reader takes the neighbour from the entry without reading the
 * link. Any other entry (written by a repair, derived from the links, or from
 * before exact entries existed) is checked against its link by readers.
 *
 * At one write time the greater bytes win, so the unverified form wins a tie
 * with the exact one (an entry once written unverified stays so), and two
 * exact entries of one key order as their link values do, as the link cell does.
 */
const EXACT_PREFIX = 0x00;
const CODEC = 'recentValue';

export function encodeExactRecentValue(link: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + link.length);
  out[0] = EXACT_PREFIX;
  out.set(link, 1);
  return out;
}

export function encodeUnverifiedRecentValue(mutationId: string): Uint8Array {
  return encodeUtf8(mutationId, CODEC);
}

/** Whether an entry value is exact (checked by its first byte only). */
export const isExactRecentValue = (value: Uint8Array): boolean => value.length > 0 && value[0] === EXACT_PREFIX;

/** The link value an exact entry carries (decoded; ACTIVE), or undefined for an unverified entry. Throws on a malformed exact value. */
export function exactRecentLink(value: Uint8Array): LinkValue | undefined {
  if (!isExactRecentValue(value)) return undefined;
  const link = decodeLinkValue(value.subarray(1));
  if (link.state !== LinkState.ACTIVE) throw new NamespaceCodecError(CODEC, `an exact entry carries a ${link.state} link`);
  return link;
}

/** The mutation id an entry names: the link's for an exact entry, the value itself otherwise. */
export function recentValueMutationId(value: Uint8Array): string {
  return exactRecentLink(value)?.mutationId ?? decodeUtf8(value, CODEC);
}
