import type { ReadPlan } from './createReaderResolver.ts';
import { DecodeError } from './DecodeError.ts';
import type { WriterSchema } from './WriterSchema.ts';

/**
 * Decodes an Avro body written with `writer`, through `plan` when read as
 * another record. The body is bounded first (writer.checkBody: every declared
 * length and count against the bytes present), so avsc never loops on a
 * declared count. The whole buffer must be consumed: trailing bytes are an
 * error, not ignored (they mean the writer schema is not what the header
 * claims). Any avsc failure (truncated, trailing data, bad union or enum
 * index) becomes DecodeError BAD_PAYLOAD.
 */
export function decodeAvroPayload(payload: Buffer, writer: WriterSchema, plan?: ReadPlan): unknown {
  const { schemaId } = writer;
  writer.checkBody(payload, schemaId);
  try {
    return plan ? plan.readerType.fromBuffer(payload, plan.resolver, false) : writer.type.fromBuffer(payload, undefined, false);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new DecodeError('BAD_PAYLOAD', `Avro body (${payload.length} bytes, schema ${schemaId}) does not decode: ${reason}`, {
      cause,
      schemaId,
    });
  }
}
