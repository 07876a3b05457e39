import type { LinkDirection } from './edgeTypeNamespaces.ts';
import { NamespaceCodecError } from './NamespaceCodecError.ts';
import { readU64, writeU64 } from './u64.ts';
import { decodeUtf8, encodeUtf8 } from './utf8Text.ts';

/**
 * A `degrees[vertex]` cell: key `type ␀ out|in` (UTF-8), value the count of
 * ACTIVE links as u64 BE. Written by the recounter only (a projection that is
 * recounted, never incremented).
 */
const SEPARATOR = '\u0000';
const KEY_CODEC = 'degreesKey';
const VALUE_CODEC = 'degreeCount';

export function encodeDegreesKey(edgeType: string, direction: LinkDirection): Uint8Array {
  return encodeUtf8(`${edgeType}${SEPARATOR}${direction}`, KEY_CODEC);
}

export function decodeDegreesKey(bytes: Uint8Array): { readonly edgeType: string; readonly direction: LinkDirection } {
  const text = decodeUtf8(bytes, KEY_CODEC);
  const at = text.indexOf(SEPARATOR);
  const direction = text.slice(at + 1);
  if (at <= 0 || (direction !== 'out' && direction !== 'in')) throw new NamespaceCodecError(KEY_CODEC, 'expected `type ␀ out|in`');
  return { edgeType: text.slice(0, at), direction };
}

export function encodeDegreeCount(count: bigint): Uint8Array {
  const out = new Uint8Array(8);
  writeU64(out, 0, count, VALUE_CODEC);
  return out;
}

export function decodeDegreeCount(bytes: Uint8Array): bigint {
  if (bytes.length !== 8) throw new NamespaceCodecError(VALUE_CODEC, `needs exactly 8 bytes, got ${bytes.length}`);
  return readU64(bytes, 0);
}
