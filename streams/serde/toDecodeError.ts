import { classifyRegistryFailure } from './classifyRegistryFailure.ts';
import { DecodeError } from './DecodeError.ts';

/**
 * The decode boundary's single error mapping for a failed writer-schema
 * lookup. Returns the original error when it is neither a registry failure
 * nor a known schema problem (a bug: let it crash, never retry or DLQ it).
 */
export function toDecodeError(e: unknown, schemaId: number): unknown {
  if (DecodeError.is(e)) return e;
  if (e instanceof Error && e.name === 'NotAnAvroRecordError') {
    return new DecodeError('WRONG_SCHEMA', e.message, { cause: e, schemaId });
  }
  switch (classifyRegistryFailure(e)) {
    case 'NOT_FOUND':
      return new DecodeError('UNKNOWN_SCHEMA_ID', `schema registry has no schema with id ${schemaId}`, { cause: e, schemaId });
    case 'INVALID_SCHEMA':
      return new DecodeError('WRONG_SCHEMA', `schema ${schemaId} could not be parsed as Avro`, { cause: e, schemaId });
    case 'CONFLICT':
    case 'COMPATIBILITY_MISMATCH':
    case 'UNAVAILABLE':
      return new DecodeError('REGISTRY_UNAVAILABLE', `schema registry lookup of id ${schemaId} failed: ${(e as Error).message}`, {
        cause: e,
        schemaId,
      });
    case undefined:
      return e;
  }
}
