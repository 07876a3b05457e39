/**
 * Why a Kafka value could not be decoded, and whether retrying can help.
 * Only REGISTRY_UNAVAILABLE is retriable: the bytes may be fine, the registry
 * is not answering, so the runtime must retry (or stop), never dead-letter.
 * Every other code is a property of the message itself: dead-letter it.
 */
const RETRIABLE_BY_CODE = {
  /** Shorter than the 5-byte header, or the first byte is not 0. */
  BAD_MAGIC_BYTE: false,
  /** No schema has the id in the header: the registry answered 404, or the id is negative. */
  UNKNOWN_SCHEMA_ID: false,
  /** The whole value is larger than the serde's `maxRecordBytes` (checked before anything is read). */
  RECORD_TOO_LARGE: false,
  /** The Avro body declares a string/bytes length or an array/map count its remaining bytes cannot hold (compileBodyCheck). */
  BAD_LENGTH: false,
  /** The Avro body does not decode with its writer schema (truncated, trailing bytes, bad union/enum index, over-long varint). */
  BAD_PAYLOAD: false,
  /** The writer schema is not an Avro record, or cannot be read as the expected record. */
  WRONG_SCHEMA: false,
  /** The registry could not be reached or failed (anything but a 404): retry. */
  REGISTRY_UNAVAILABLE: true,
} as const;

export type DecodeErrorCode = keyof typeof RETRIABLE_BY_CODE;

/** The one error the decode path throws for a message-level or registry-level failure. */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';
  readonly code: DecodeErrorCode;
  readonly retriable: boolean;
  /** The schema id from the header, when the header was readable. */
  readonly schemaId: number | undefined;

  constructor(code: DecodeErrorCode, message: string, opts: { cause?: unknown; schemaId?: number } = {}) {
    super(message, { cause: opts.cause });
    this.code = code;
    this.retriable = RETRIABLE_BY_CODE[code];
    this.schemaId = opts.schemaId;
  }

  /** Brand check that survives the module being loaded twice (no bare instanceof). */
  static is(e: unknown): e is DecodeError {
    return e instanceof Error && e.name === 'DecodeError' && Object.hasOwn(RETRIABLE_BY_CODE, (e as DecodeError).code);
  }
}
