import { DecodeError } from './DecodeError.ts';

/** The Confluent wire-format header, split from the Avro body. */
export interface WireFrame {
  readonly schemaId: number;
  /** A view into the input buffer (no copy): do not mutate. */
  readonly payload: Buffer;
}

const HEADER_BYTES = 5;
const MAGIC_BYTE = 0;

/**
 * Splits `[magic 0][schema id: int32 big-endian][Avro binary]` (Confluent wire
 * format). Bytes only: no registry, no Avro. Throws DecodeError BAD_MAGIC_BYTE
 * for a buffer shorter than the header or a magic byte other than 0, and
 * UNKNOWN_SCHEMA_ID for a negative id: registry ids are non-negative Java
 * ints, and asking the registry about a garbage id might get an answer that
 * looks like an outage (retried forever) instead of a bad message.
 */
export function decodeWireFrame(buffer: Buffer): WireFrame {
  if (buffer.length < HEADER_BYTES) {
    throw new DecodeError('BAD_MAGIC_BYTE', `value is ${buffer.length} bytes, shorter than the 5-byte wire-format header`);
  }
  const magic = buffer.readUInt8(0);
  if (magic !== MAGIC_BYTE) {
    throw new DecodeError('BAD_MAGIC_BYTE', `magic byte is ${magic}, expected ${MAGIC_BYTE} (not Confluent wire format)`);
  }
  const schemaId = buffer.readInt32BE(1);
  if (schemaId < 0) {
    throw new DecodeError('UNKNOWN_SCHEMA_ID', `schema id ${schemaId} in the header is negative`, { schemaId });
  }
  return { schemaId, payload: buffer.subarray(HEADER_BYTES) };
}
