/** Prepends the Confluent wire-format header `[0][schema id int32 BE]` to an Avro body; returns a new buffer. */
export function encodeWireFrame(schemaId: number, payload: Buffer): Buffer {
  if (!Number.isInteger(schemaId) || schemaId < 0 || schemaId > 0x7fffffff) {
    throw new RangeError(`schema id must be an int32 >= 0, got ${schemaId}`);
  }
  const header = Buffer.alloc(5);
  header.writeInt32BE(schemaId, 1);
  return Buffer.concat([header, payload]);
}
