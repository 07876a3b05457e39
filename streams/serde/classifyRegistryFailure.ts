/** What a failed @kafkajs/confluent-schema-registry call means, independent of which boundary saw it. */
export type RegistryFailure =
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'INVALID_SCHEMA'
  | 'COMPATIBILITY_MISMATCH'
  | 'UNAVAILABLE';

/**
 * Classifies an error thrown by the kafkajs schema-registry client; undefined
 * when it is not one of its errors (a bug: the caller rethrows it untouched,
 * so a TypeError is never mistaken for a retriable outage).
 *
 * Matched by `name`, not instanceof, so a second copy of the package still
 * classifies. HTTP failures arrive as its `ResponseError` with `status`
 * (src/api/middleware/errorMiddleware.ts). mappersmith reports network
 * failures (ECONNREFUSED, timeouts) as status 400, so a 400 counts as
 * unavailable along with 401/403/5xx: none of them is the message's fault.
 */
export function classifyRegistryFailure(e: unknown): RegistryFailure | undefined {
  if (!(e instanceof Error)) return undefined;
  switch (e.name) {
    case 'ResponseError': {
      const status = (e as Error & { status?: unknown }).status;
      if (status === 404) return 'NOT_FOUND';
      if (status === 409) return 'CONFLICT';
      if (status === 422) return 'INVALID_SCHEMA';
      return 'UNAVAILABLE';
    }
    case 'ConfluentSchemaRegistryCompatibilityError':
      return 'COMPATIBILITY_MISMATCH';
    // The client failed to parse a schema (its own, or one the registry returned).
    case 'ConfluentSchemaRegistryArgumentError':
    case 'ConfluentSchemaRegistryInvalidSchemaError':
      return 'INVALID_SCHEMA';
    default:
      return undefined;
  }
}
