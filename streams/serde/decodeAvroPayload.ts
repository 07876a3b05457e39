import type avro from 'avsc';
import { DecodeError } from './DecodeError.ts';

/**
 * Decodes an Avro body with `type`, through `resolver` when the writer schema
 * differs. The whole buffer must be consumed: trailing bytes are an error,
 * not ignored (they mean the writer schema is not what the header claims).
 * Any avsc failure (truncated, trailing data, bad union or enum index)
 * becomes DecodeError BAD_PAYLOAD.
 */
export function decodeAvroPayload(
  payload: Buffer,
  schemaId: number,
  type: avro.Type,
  resolver?: avro.Resolver,
): unknown {
  try {
    return type.fromBuffer(payload, resolver, false);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new DecodeError('BAD_PAYLOAD', `Avro body (${payload.length} bytes, schema ${schemaId}) does not decode: ${reason}`, {
      cause,
      schemaId,
    });
  }
}
