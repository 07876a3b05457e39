import { createHash } from 'node:crypto';
import { bytesEqual } from '../store/compareBytes.ts';
import type { ChunkMetadata } from './chunkMetadata.ts';

/** Splitting a large value into chunks and putting it back together, verified. */

export function digestOf(value: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(value).digest());
}

/** Views (not copies) of `value`, each `chunkBytes` long except possibly the last; one empty chunk for an empty value. */
export function splitValue(value: Uint8Array, chunkBytes: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < value.length; offset += chunkBytes) {
    chunks.push(value.subarray(offset, Math.min(offset + chunkBytes, value.length)));
  }
  return chunks.length > 0 ? chunks : [value.subarray(0, 0)];
}

/**
 * Reassembles chunks read in `idx` order. Undefined when they do not add up to
 * the value `meta` describes (missing, extra or altered chunks), which means a
 * concurrent write collected them: the caller re-reads the row.
 */
export function assembleChunks(meta: ChunkMetadata, chunks: readonly { idx: number; data: Uint8Array }[]): Uint8Array | undefined {
  if (chunks.length !== meta.chunkCount) return undefined;
  let total = 0;
  for (const [i, chunk] of chunks.entries()) {
    if (chunk.idx !== i) return undefined;
    total += chunk.data.length;
  }
  if (total !== meta.totalBytes) return undefined;
  const value = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    value.set(chunk.data, offset);
    offset += chunk.data.length;
  }
  return bytesEqual(digestOf(value), meta.digest) ? value : undefined;
}
