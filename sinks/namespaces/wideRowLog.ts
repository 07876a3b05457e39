import { NamespaceCodecError } from './NamespaceCodecError.ts';
import { readU64, writeU64 } from './u64.ts';
import { decodeUtf8, encodeUtf8 } from './utf8Text.ts';

/**
 * The change log of `wide_rows` (`wide_rows_log`): one cell per record write, in
 * a partition per splittable namespace and hour, keyed by the writer's clock
 * then the partition id, so "what changed since T" is one slice from T per hour.
 */
export const WIDE_ROW_LOG_BUCKET_MS = 3_600_000;
/** Cells expire after a day (Cassandra `default_time_to_live`); readers only look minutes back. */
export const WIDE_ROW_LOG_TTL_SECONDS = 86_400;

const CODEC = 'wideRowLogKey';

/** The log partition holding a change of `namespace` at `atMs`. */
export const wideRowLogBucketId = (namespace: string, atMs: number): string => `${namespace}/${Math.floor(atMs / WIDE_ROW_LOG_BUCKET_MS) * WIDE_ROW_LOG_BUCKET_MS}`;

/** Every log partition of `namespace` that can hold a change in [fromMs, untilMs], oldest first. */
export function wideRowLogBucketIds(namespace: string, fromMs: number, untilMs: number): string[] {
  const out: string[] = [];
  for (let t = Math.floor(Math.max(0, fromMs) / WIDE_ROW_LOG_BUCKET_MS) * WIDE_ROW_LOG_BUCKET_MS; t <= untilMs; t += WIDE_ROW_LOG_BUCKET_MS) out.push(wideRowLogBucketId(namespace, t));
  return out;
}

/** The smallest key at or after `atMs`: a slice from it reads the changes logged since. */
export function wideRowLogKeyFrom(atMs: number): Uint8Array {
  const out = new Uint8Array(8);
  writeU64(out, 0, BigInt(Math.max(0, Math.floor(atMs))), CODEC);
  return out;
}

export function encodeWideRowLogKey(atMs: number, partitionId: string): Uint8Array {
  const id = encodeUtf8(partitionId, CODEC);
  const out = new Uint8Array(8 + id.length);
  out.set(wideRowLogKeyFrom(atMs));
  out.set(id, 8);
  return out;
}

export function decodeWideRowLogKey(key: Uint8Array): { readonly atMs: number; readonly partitionId: string } {
  if (key.length < 8) throw new NamespaceCodecError(CODEC, `key of ${key.length} bytes (at least 8)`);
  return { atMs: Number(readU64(key, 0)), partitionId: decodeUtf8(key.subarray(8), CODEC) };
}
