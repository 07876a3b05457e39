import { NamespaceCodecError } from './NamespaceCodecError.ts';
import { readU64, writeU64 } from './u64.ts';
import { decodeUtf8, encodeUtf8 } from './utf8Text.ts';

/**
 * The value of a `T_out` / `T_in` cell (version 2; version 1 still decodes):
 *
 *   v2: [0x02][state: 0x01 ACTIVE | 0x02 HIDDEN | 0x03 REMOVED][time: u64 BE][data length: u8][data][mutation_id: UTF-8]
 *   v1: [0x01][state: 0x01 ACTIVE | 0x02 REMOVED][time: u64 BE][mutation_id: UTF-8]
 *
 * The layout serves the store's equal-write-time rule ("greater bytes win"):
 * at one write time REMOVED beats HIDDEN beats ACTIVE, then the greater edge
 * time, then the data, then the mutation id, so the winner never depends on
 * arrival order. `time` is the EDGE time (the client's edge_time, else the
 * event time), the key of the link's `*_recent` entry; the write time of
 * the cell is the event time.
 */
export const LINK_VALUE_VERSION = 0x02;

export const LinkState = { ACTIVE: 'ACTIVE', HIDDEN: 'HIDDEN', REMOVED: 'REMOVED' } as const;
export type LinkState = (typeof LinkState)[keyof typeof LinkState];

/** The most `data` a link value carries (its length is one byte). */
export const MAX_LINK_DATA_BYTES = 255;

const STATE_BYTE: Readonly<Record<LinkState, number>> = { ACTIVE: 0x01, HIDDEN: 0x02, REMOVED: 0x03 };
const V2_STATES: Readonly<Record<number, LinkState>> = { 0x01: LinkState.ACTIVE, 0x02: LinkState.HIDDEN, 0x03: LinkState.REMOVED };
const V1_STATES: Readonly<Record<number, LinkState>> = { 0x01: LinkState.ACTIVE, 0x02: LinkState.REMOVED };
const V1_HEADER_BYTES = 10;
const V2_HEADER_BYTES = 11;
const CODEC = 'LinkValue';

export interface LinkValue {
  readonly state: LinkState;
  /** Edge time, microseconds: the ordering key of newest-first pages. */
  readonly time: bigint;
  readonly mutationId: string;
  /** The edge's opaque payload; absent when it has none (an empty payload is none). */
  readonly data?: Uint8Array;
}

export function encodeLinkValue(link: LinkValue): Uint8Array {
  const id = encodeUtf8(link.mutationId, CODEC);
  const data = link.data ?? new Uint8Array(0);
  if (data.length > MAX_LINK_DATA_BYTES) throw new NamespaceCodecError(CODEC, `data is ${data.length} bytes, at most ${MAX_LINK_DATA_BYTES} fit`);
  const out = new Uint8Array(V2_HEADER_BYTES + data.length + id.length);
  out[0] = LINK_VALUE_VERSION;
  out[1] = STATE_BYTE[link.state];
  writeU64(out, 2, link.time, CODEC);
  out[10] = data.length;
  out.set(data, V2_HEADER_BYTES);
  out.set(id, V2_HEADER_BYTES + data.length);
  return out;
}

/**
 * Whether a link value is ACTIVE, from its first two bytes (ACTIVE is 0x01 in
 * both versions): a traversal checks every cell it reads and needs nothing
 * else. A value too short to hold a header, or of an unknown version or
 * state, is decoded to throw what `decodeLinkValue` throws.
 */
export function isActiveLinkValue(bytes: Uint8Array): boolean {
  const version = bytes[0];
  const known = (version === 0x01 && bytes.length >= V1_HEADER_BYTES) || (version === 0x02 && bytes.length >= V2_HEADER_BYTES);
  return known && bytes[1] === 0x01 ? true : decodeLinkValue(bytes).state === LinkState.ACTIVE;
}

/**
 * Whether a link value is ACTIVE with exactly the edge time whose inverted
 * form (invTime, u64 BE: a `*_recent` key's first 8 bytes) is `invertedTime`,
 * byte by byte and without decoding: for t in [0, 2^63 - 1], invTime(t) =
 * (2^63 - 1) - t = t XOR (2^63 - 1). A value that is not a valid link value
 * throws what `decodeLinkValue` throws.
 */
export function isActiveAtInvertedTime(bytes: Uint8Array, invertedTime: Uint8Array): boolean {
  if (!isActiveLinkValue(bytes)) return false;
  if ((bytes[2] as number) ^ 0x7f ^ (invertedTime[0] as number)) return false;
  for (let i = 1; i < 8; i++) if ((bytes[2 + i] as number) ^ 0xff ^ (invertedTime[i] as number)) return false;
  return true;
}

export function decodeLinkValue(bytes: Uint8Array): LinkValue {
  const version = bytes[0];
  if (version !== 0x01 && version !== 0x02) {
    if (bytes.length === 0) throw new NamespaceCodecError(CODEC, `needs at least ${V1_HEADER_BYTES} bytes, got 0`);
    throw new NamespaceCodecError(CODEC, `unknown version 0x${hex(version)}`);
  }
  const headerBytes = version === 0x01 ? V1_HEADER_BYTES : V2_HEADER_BYTES;
  if (bytes.length < headerBytes) throw new NamespaceCodecError(CODEC, `needs at least ${headerBytes} bytes, got ${bytes.length}`);
  const state = (version === 0x01 ? V1_STATES : V2_STATES)[bytes[1] as number];
  if (state === undefined) throw new NamespaceCodecError(CODEC, `unknown state 0x${hex(bytes[1])}`);
  const time = readU64(bytes, 2);
  if (version === 0x01) return { state, time, mutationId: decodeUtf8(bytes.subarray(V1_HEADER_BYTES), CODEC) };
  const dataEnd = V2_HEADER_BYTES + (bytes[10] as number);
  if (bytes.length < dataEnd) throw new NamespaceCodecError(CODEC, `data length ${bytes[10]} runs past the value's ${bytes.length} bytes`);
  const mutationId = decodeUtf8(bytes.subarray(dataEnd), CODEC);
  return dataEnd === V2_HEADER_BYTES ? { state, time, mutationId } : { state, time, mutationId, data: bytes.slice(V2_HEADER_BYTES, dataEnd) };
}

const hex = (b: number | undefined): string => (b ?? 0).toString(16).padStart(2, '0');
