import { StoreError } from '../store/StoreError.ts';

/**
 * The `value_metadata` column. Empty means the value is inline in `value`.
 * Otherwise it describes a chunked value (format 1, 49 bytes, big-endian):
 *
 *   u8  format = 1 | u32 chunk count | u32 total bytes | i64 write_ts | 32 bytes SHA-256 of the value
 *
 * `write_ts` and the digest locate the chunks in `<namespace>__chunks`; the
 * digest also verifies the reassembled value.
 */
export interface ChunkMetadata {
  readonly chunkCount: number;
  readonly totalBytes: number;
  readonly writeTime: bigint;
  readonly digest: Uint8Array;
}

const FORMAT_CHUNKED_V1 = 1;
const DIGEST_BYTES = 32;
const ENCODED_BYTES = 1 + 4 + 4 + 8 + DIGEST_BYTES;

export function encodeChunkMetadata(m: ChunkMetadata): Uint8Array {
  const out = Buffer.alloc(ENCODED_BYTES);
  out.writeUInt8(FORMAT_CHUNKED_V1, 0);
  out.writeUInt32BE(m.chunkCount, 1);
  out.writeUInt32BE(m.totalBytes, 5);
  out.writeBigInt64BE(m.writeTime, 9);
  out.set(m.digest, 17);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/** Undefined for an inline value; throws `corrupt_value` for anything it cannot read. */
export function decodeChunkMetadata(bytes: Uint8Array): ChunkMetadata | undefined {
  if (bytes.length === 0) return undefined;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.readUInt8(0) !== FORMAT_CHUNKED_V1 || buf.length !== ENCODED_BYTES) {
    throw new StoreError('corrupt_value', `unknown value_metadata format (${buf.length} bytes, format ${buf.readUInt8(0)})`);
  }
  return {
    chunkCount: buf.readUInt32BE(1),
    totalBytes: buf.readUInt32BE(5),
    writeTime: buf.readBigInt64BE(9),
    digest: new Uint8Array(buf.subarray(17, 17 + DIGEST_BYTES)),
  };
}
