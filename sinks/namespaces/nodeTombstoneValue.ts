import { NamespaceCodecError } from './NamespaceCodecError.ts';
import { readU64, writeU64 } from './u64.ts';
import { decodeUtf8, encodeUtf8 } from './utf8Text.ts';

/**
 * The one cell of a `node_tombstones[v]` partition, written at the
 * REMOVE_NODE's event time (the cell's write time *is* the tombstone time):
 *
 *   [version = 0x01][mutation_id: UTF-8][0x00][written_at: u64 BE, wall clock µs]
 *
 * The mutation id comes before the wall clock on purpose. Two REMOVE_NODEs of
 * one vertex at the same event time are settled by the store's "greater
 * bytes win" rule; with the id first (and ended by 0x00, which mutation ids
 * never contain, so a shorter id sorts before its extensions), the winner is
 * the greater mutation id whatever the processing wall clocks were. The
 * fan-out copies that id into the REMOVED link values it derives from the
 * tombstone, so every arrival order produces the same bytes. A replay of one
 * REMOVE_NODE only moves `written_at` later, which delays the cascade's
 * settle wait: the safe direction.
 */
export const NODE_TOMBSTONE_VERSION = 0x01;
/** The key of the tombstone cell within a vertex's partition. */
export const NODE_TOMBSTONE_KEY: Uint8Array = new Uint8Array(0);
const CODEC = 'NodeTombstoneValue';

export interface NodeTombstoneValue {
  readonly mutationId: string;
  /** Wall clock of the write, microseconds: the cascade waits `cascadeSettleMs` after it. */
  readonly writtenAtMicros: bigint;
}

export function encodeNodeTombstoneValue(tombstone: NodeTombstoneValue): Uint8Array {
  const id = encodeUtf8(tombstone.mutationId, CODEC);
  if (id.includes(0)) throw new NamespaceCodecError(CODEC, 'mutation id must not contain U+0000 (it ends the id)');
  const out = new Uint8Array(1 + id.length + 1 + 8);
  out[0] = NODE_TOMBSTONE_VERSION;
  out.set(id, 1);
  out[1 + id.length] = 0x00;
  writeU64(out, 2 + id.length, tombstone.writtenAtMicros, CODEC);
  return out;
}

export function decodeNodeTombstoneValue(bytes: Uint8Array): NodeTombstoneValue {
  if (bytes.length < 10) throw new NamespaceCodecError(CODEC, `needs at least 10 bytes, got ${bytes.length}`);
  if (bytes[0] !== NODE_TOMBSTONE_VERSION) throw new NamespaceCodecError(CODEC, `unknown version 0x${(bytes[0] ?? 0).toString(16)}`);
  const end = bytes.indexOf(0x00, 1);
  if (end !== bytes.length - 9) throw new NamespaceCodecError(CODEC, 'expected exactly one 0x00 after the mutation id, followed by 8 bytes');
  return { mutationId: decodeUtf8(bytes.subarray(1, end), CODEC), writtenAtMicros: readU64(bytes, end + 1) };
}
