import { NamespaceCodecError } from './NamespaceCodecError.ts';
import { readU64, writeU64 } from './u64.ts';
import { decodeUtf8, encodeUtf8 } from './utf8Text.ts';

/**
 * The key of a `*_recent` cell: `invTime(time) ‖ peer`, with
 * invTime(t) = 2^63 - 1 - t as u64 BE. Under the store's unsigned byte order
 * an ascending slice is newest first, and links of one time are ordered by
 * the peer's UTF-8 bytes. Times are write times, so they lie in [0, 2^63 - 1]
 * and invTime never underflows.
 */
export const MAX_TIME = 2n ** 63n - 1n;
const TIME_BYTES = 8;
const CODEC = 'recentKey';

export function invertTime(time: bigint): bigint {
  if (time < 0n || time > MAX_TIME) throw new NamespaceCodecError(CODEC, `time ${time} is outside [0, 2^63-1]`);
  return MAX_TIME - time;
}

export function encodeRecentKey(time: bigint, peer: string): Uint8Array {
  const peerBytes = encodeUtf8(peer, CODEC);
  const out = new Uint8Array(TIME_BYTES + peerBytes.length);
  writeU64(out, 0, invertTime(time), CODEC);
  out.set(peerBytes, TIME_BYTES);
  return out;
}

export function decodeRecentKey(bytes: Uint8Array): { readonly time: bigint; readonly peer: string } {
  checkRecentKey(bytes);
  return { time: MAX_TIME - readU64(bytes, 0), peer: decodeUtf8(bytes.subarray(TIME_BYTES), CODEC) };
}

/**
 * The peer's bytes in a `*_recent` key, as a view (no copy, no decoding): the
 * link namespace keys the same peer by exactly these bytes (`encodeVertexKey`),
 * so a page validates its entries without a string per peer.
 */
export function recentKeyPeerBytes(bytes: Uint8Array): Uint8Array {
  checkRecentKey(bytes);
  return bytes.subarray(TIME_BYTES);
}

function checkRecentKey(bytes: Uint8Array): void {
  if (bytes.length < TIME_BYTES) throw new NamespaceCodecError(CODEC, `needs at least ${TIME_BYTES} bytes, got ${bytes.length}`);
  // invTime(t) <= 2^63 - 1: the top bit of its first byte is clear.
  if ((bytes[0] as number) > 0x7f) throw new NamespaceCodecError(CODEC, `inverted time ${readU64(bytes, 0)} is above 2^63-1`);
}
