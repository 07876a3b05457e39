import { NamespaceCodecError } from './NamespaceCodecError.ts';
import { readU64, writeU64 } from './u64.ts';
import { decodeUtf8, encodeUtf8 } from './utf8Text.ts';

/**
 * The value of a `T_out` / `T_in` cell:
 *
 *   [version = 0x01][state: 0x01 ACTIVE | 0x02 REMOVED][time: u64 BE][mutation_id: UTF-8]
 *
 * The layout is chosen for the store's equal-write-time rule ("greater bytes
 * win"): at one write time REMOVED (0x02) beats ACTIVE (0x01), and two writes
 * of one state are settled by their mutation ids, so the winner never depends
 * on arrival order. `time` is the event time of the write (equal to its write
 * time); readers of the `*_recent` index compare it with the index key.
 */
export const LINK_VALUE_VERSION = 0x01;

export const LinkState = { ACTIVE: 'ACTIVE', REMOVED: 'REMOVED' } as const;
export type LinkState = (typeof LinkState)[keyof typeof LinkState];

const STATE_BYTE: Readonly<Record<LinkState, number>> = { ACTIVE: 0x01, REMOVED: 0x02 };
const HEADER_BYTES = 10;
const CODEC = 'LinkValue';

export interface LinkValue {
  readonly state: LinkState;
  /** Event time of the winning write, microseconds. */
  readonly time: bigint;
  readonly mutationId: string;
}

export function encodeLinkValue(link: LinkValue): Uint8Array {
  const id = encodeUtf8(link.mutationId, CODEC);
  const out = new Uint8Array(HEADER_BYTES + id.length);
  out[0] = LINK_VALUE_VERSION;
  out[1] = STATE_BYTE[link.state];
  writeU64(out, 2, link.time, CODEC);
  out.set(id, HEADER_BYTES);
  return out;
}

export function decodeLinkValue(bytes: Uint8Array): LinkValue {
  if (bytes.length < HEADER_BYTES) throw new NamespaceCodecError(CODEC, `needs at least ${HEADER_BYTES} bytes, got ${bytes.length}`);
  if (bytes[0] !== LINK_VALUE_VERSION) throw new NamespaceCodecError(CODEC, `unknown version 0x${hex(bytes[0])}`);
  const state = bytes[1] === 0x01 ? LinkState.ACTIVE : bytes[1] === 0x02 ? LinkState.REMOVED : undefined;
  if (state === undefined) throw new NamespaceCodecError(CODEC, `unknown state 0x${hex(bytes[1])}`);
  return { state, time: readU64(bytes, 2), mutationId: decodeUtf8(bytes.subarray(HEADER_BYTES), CODEC) };
}

const hex = (b: number | undefined): string => (b ?? 0).toString(16).padStart(2, '0');
