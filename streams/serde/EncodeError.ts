/**
 * Why a value could not be encoded. Only REGISTRY_UNAVAILABLE is retriable;
 * the rest are caller or deployment errors that retrying cannot fix.
 */
const RETRIABLE_BY_CODE = {
  /** The subject has no registered version (404): register it first. */
  UNKNOWN_SUBJECT: false,
  /** The registry answered 404 for the schema id given. */
  UNKNOWN_SCHEMA_ID: false,
  /** The registered schema is not an Avro record. */
  WRONG_SCHEMA: false,
  /** The value does not match the writer schema; the message lists the bad paths. */
  INVALID_VALUE: false,
  /** The registry could not be reached or failed (anything but a 404): retry. */
  REGISTRY_UNAVAILABLE: true,
} as const;

export type EncodeErrorCode = keyof typeof RETRIABLE_BY_CODE;

/** The one error the encode path throws. */
export class EncodeError extends Error {
  override readonly name = 'EncodeError';
  readonly code: EncodeErrorCode;
  readonly retriable: boolean;

  constructor(code: EncodeErrorCode, message: string, opts: { cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.code = code;
    this.retriable = RETRIABLE_BY_CODE[code];
  }

  /** Brand check that survives the module being loaded twice (no bare instanceof). */
  static is(e: unknown): e is EncodeError {
    return e instanceof Error && e.name === 'EncodeError' && Object.hasOwn(RETRIABLE_BY_CODE, (e as EncodeError).code);
  }
}
