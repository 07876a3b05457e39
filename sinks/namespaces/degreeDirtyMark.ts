import type { LinkDirection } from './edgeTypeNamespaces.ts';
import { fnv1a32 } from './fnv1a32.ts';
import { NamespaceCodecError } from './NamespaceCodecError.ts';
import { decodeUtf8, encodeUtf8 } from './utf8Text.ts';

/**
 * A `degree_dirty` mark says "the degree of (edge type, direction, vertex)
 * may have changed". Marks are spread over a fixed set of partitions
 * (`shard-<fnv1a32(vertex) mod 16>`) so a recounter can walk them all with 16
 * slices and one vertex's marks always land in one shard. The key is
 * `type ␀ out|in ␀ vertex ␀ writer` (UTF-8; `writer` names the write that
 * made the mark, e.g. `peer ␀ mutation id`); the value is empty. Each write's
 * mark is its own cell, so a recounter that deletes the marks it counted (at
 * the write time it read them with) never shadows another writer's mark,
 * whatever the writers' clocks. Keys without a writer (older marks) decode too.
 *
 * An **intent** is the same key followed by `␀ ␀ stamp` (decimal µs): a mark
 * the fan-out writes *before* the write's link cells, stamped per attempt
 * (docs/architecture.md §5 "Counts"). A writer never contains `␀ ␀` (it is
 * `peer ␀ mutation id`, both non-empty and free of U+0000), so the first
 * `␀ ␀` after the vertex starts the stamp; a recounter that does not know
 * intents reads one as a mark of the same peer.
 */
export const DEGREE_DIRTY_SHARDS = 16;
const SEPARATOR = '\u0000';
const CODEC = 'degreeDirtyKey';

export interface DegreeDirtyMark {
  readonly edgeType: string;
  readonly direction: LinkDirection;
  readonly vertex: string;
  /** The write that made the mark (`peer ␀ mutation id`); may contain U+0000, never two in a row (nor end with one, on an intent). */
  readonly writer?: string;
  /** Set on an intent (with a writer): the stamp of the attempt that wrote it before its link writes. */
  readonly intentStamp?: bigint;
}

const INTENT = `${SEPARATOR}${SEPARATOR}`;

/** The partition id holding `vertex`'s marks. */
export function degreeDirtyShard(vertex: string): string {
  return `shard-${fnv1a32(encodeUtf8(vertex, CODEC)) % DEGREE_DIRTY_SHARDS}`;
}

/**
 * The partition of an event's intents: spread by the event (its endpoints and
 * mutation id), not by the vertex they name, so a celebrity's shard gets no
 * more writes than its marks. A recounter reads a mark's target from its key,
 * never from its shard.
 */
export function degreeIntentShard(src: string, dst: string, mutationId: string): string {
  // The high bits of the hash (range reduction): FNV-1a's low bits follow the parity of the bytes, and an event's
  // text often repeats itself (`fan7 ␀ star ␀ f7`), which left half the shards empty.
  const hash = fnv1a32(encodeUtf8(`${src}${SEPARATOR}${dst}${SEPARATOR}${mutationId}`, CODEC));
  return `shard-${Math.floor((hash / 2 ** 32) * DEGREE_DIRTY_SHARDS)}`;
}

/** Every shard id, for a recounter that walks them all. */
export function degreeDirtyShards(): readonly string[] {
  return Array.from({ length: DEGREE_DIRTY_SHARDS }, (_, n) => `shard-${n}`);
}

export function encodeDegreeDirtyKey(mark: DegreeDirtyMark): Uint8Array {
  if (mark.intentStamp !== undefined && (mark.writer === undefined || mark.intentStamp < 0n)) throw new NamespaceCodecError(CODEC, 'an intent needs a writer and a stamp >= 0');
  if (mark.writer?.includes(INTENT) || (mark.intentStamp !== undefined && mark.writer?.endsWith(SEPARATOR))) throw new NamespaceCodecError(CODEC, 'a writer never contains two U+0000 in a row (nor ends with one, on an intent)');
  const writer = mark.writer === undefined ? '' : `${SEPARATOR}${mark.writer}`;
  const intent = mark.intentStamp === undefined ? '' : `${INTENT}${mark.intentStamp}`;
  return encodeUtf8(`${mark.edgeType}${SEPARATOR}${mark.direction}${SEPARATOR}${mark.vertex}${writer}${intent}`, CODEC);
}

/** The prefix of every mark and intent of (edge type, direction, vertex) that names a writer, and of no other mark. */
export function degreeDirtyTargetPrefix(mark: Pick<DegreeDirtyMark, 'edgeType' | 'direction' | 'vertex'>): Uint8Array {
  return encodeUtf8(`${mark.edgeType}${SEPARATOR}${mark.direction}${SEPARATOR}${mark.vertex}${SEPARATOR}`, CODEC);
}

export function decodeDegreeDirtyKey(bytes: Uint8Array): DegreeDirtyMark {
  const text = decodeUtf8(bytes, CODEC);
  const first = text.indexOf(SEPARATOR);
  const second = first < 0 ? -1 : text.indexOf(SEPARATOR, first + 1);
  if (second < 0) throw new NamespaceCodecError(CODEC, 'expected `type ␀ out|in ␀ vertex`');
  const direction = text.slice(first + 1, second);
  if (direction !== 'out' && direction !== 'in') throw new NamespaceCodecError(CODEC, `unknown direction '${direction}'`);
  const edgeType = text.slice(0, first);
  // Vertex ids never contain U+0000 (schemas/validation), so the first one after the vertex starts the writer.
  const third = text.indexOf(SEPARATOR, second + 1);
  const vertex = third < 0 ? text.slice(second + 1) : text.slice(second + 1, third);
  if (edgeType === '' || vertex === '') throw new NamespaceCodecError(CODEC, 'edge type and vertex must be non-empty');
  if (third < 0) return { edgeType, direction, vertex };
  const tail = text.slice(third + 1);
  const intent = tail.indexOf(INTENT);
  if (intent < 0) return { edgeType, direction, vertex, writer: tail };
  const stamp = tail.slice(intent + INTENT.length);
  if (!/^[0-9]{1,20}$/.test(stamp)) throw new NamespaceCodecError(CODEC, `an intent's stamp must be decimal digits, got '${stamp}'`);
  return { edgeType, direction, vertex, writer: tail.slice(0, intent), intentStamp: BigInt(stamp) };
}
