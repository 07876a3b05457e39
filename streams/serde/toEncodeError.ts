import { classifyRegistryFailure } from './classifyRegistryFailure.ts';
import { EncodeError } from './EncodeError.ts';

/**
 * The encode boundary's single error mapping for a failed registry lookup
 * (`what` names it: "subject x-value" or "schema id 7"). Returns the original
 * error when it is not a registry failure (a bug: let it crash).
 */
export function toEncodeError(e: unknown, target: string | number): unknown {
  if (EncodeError.is(e)) return e;
  const what = typeof target === 'string' ? `subject ${target}` : `schema id ${target}`;
  if (e instanceof Error && e.name === 'NotAnAvroRecordError') {
    return new EncodeError('WRONG_SCHEMA', e.message, { cause: e });
  }
  switch (classifyRegistryFailure(e)) {
    case 'NOT_FOUND':
      return typeof target === 'string'
        ? new EncodeError('UNKNOWN_SUBJECT', `schema registry has no version of ${what}: register it first`, { cause: e })
        : new EncodeError('UNKNOWN_SCHEMA_ID', `schema registry has no ${what}`, { cause: e });
    case 'INVALID_SCHEMA':
      return new EncodeError('WRONG_SCHEMA', `the schema of ${what} could not be parsed as Avro`, { cause: e });
    case 'CONFLICT':
    case 'COMPATIBILITY_MISMATCH':
    case 'UNAVAILABLE':
      return new EncodeError('REGISTRY_UNAVAILABLE', `schema registry lookup of ${what} failed: ${(e as Error).message}`, { cause: e });
    case undefined:
      return e;
  }
}
