/**
 * Why registering a schema under a subject failed. Only REGISTRY_UNAVAILABLE
 * is retriable; the others need a schema or registry-config change.
 */
const RETRIABLE_BY_CODE = {
  /** The registry rejected the schema under the subject's compatibility rule (409). */
  INCOMPATIBLE_SCHEMA: false,
  /** The schema is not valid Avro (client-side parse or registry 422). */
  INVALID_SCHEMA: false,
  /** The subject's compatibility level is not the one requested (kafkajs checks GET /config/{subject}). */
  COMPATIBILITY_MISMATCH: false,
  /** The registry could not be reached or failed: retry. */
  REGISTRY_UNAVAILABLE: true,
} as const;

export type SchemaRegistrationErrorCode = keyof typeof RETRIABLE_BY_CODE;

/** The one error registerSchemas throws; names the subject it failed on. */
export class SchemaRegistrationError extends Error {
  override readonly name = 'SchemaRegistrationError';
  readonly code: SchemaRegistrationErrorCode;
  readonly retriable: boolean;
  readonly subject: string;

  constructor(code: SchemaRegistrationErrorCode, subject: string, message: string, opts: { cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.code = code;
    this.retriable = RETRIABLE_BY_CODE[code];
    this.subject = subject;
  }

  /** Brand check that survives the module being loaded twice (no bare instanceof). */
  static is(e: unknown): e is SchemaRegistrationError {
    return (
      e instanceof Error &&
      e.name === 'SchemaRegistrationError' &&
      Object.hasOwn(RETRIABLE_BY_CODE, (e as SchemaRegistrationError).code)
    );
  }
}
