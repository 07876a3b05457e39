import type avro from 'avsc';

/** Prepends the Confluent wire-format header `[0][schema id int32 BE]` to an Avro body; returns a new buffer. */
export function encodeWireFrame(schemaId: number, payload: Buffer): Buffer {
  assertSchemaId(schemaId);
  const header = Buffer.alloc(5);
  header.writeInt32BE(schemaId, 1);
  return Buffer.concat([header, payload]);
}

/** Encodes in a reused scratch buffer, so a framed value costs one small (pooled) allocation. */
let scratch = Buffer.allocUnsafe(64 * 1024);

/**
 * Encodes `value` with `type` straight into a wire frame (header + body), the
 * same bytes as `encodeWireFrame(schemaId, type.toBuffer(value))`. Throws what
 * avsc's writer throws for a value that does not match `type`.
 */
export function encodeFramed(schemaId: number, type: avro.Type, value: unknown): Buffer {
  assertSchemaId(schemaId);
  let end = type.encode(value, scratch, 5);
  if (end < 0) {
    // avsc reports the shortfall as a negative number
    scratch = Buffer.allocUnsafe(Math.max(2 * scratch.length, scratch.length - end));
    end = type.encode(value, scratch, 5);
  }
  const frame = Buffer.allocUnsafe(end);
  scratch.copy(frame, 0, 0, end);
  frame[0] = 0;
  frame.writeInt32BE(schemaId, 1);
  return frame;
}

function assertSchemaId(schemaId: number): void {
  if (!Number.isInteger(schemaId) || schemaId < 0 || schemaId > 0x7fffffff) {
    throw new RangeError(`schema id must be an int32 >= 0, got ${schemaId}`);
  }
}
