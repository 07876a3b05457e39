/**
 * The one error the producer SDK throws (tRPC-style: a closed `code` union,
 * `retriable`, and the `cause` kept).
 */
const RETRIABLE_BY_CODE = {
  /** An argument breaks the event rules; `argument` names it (e.g. `src`, `properties.color`). */
  INVALID_ARGUMENT: false,
  /** The event could not be encoded: the registry is down (retriable) or the subject is not registered. */
  ENCODE_FAILED: false,
  /** Kafka did not acknowledge the batch the event was in. */
  SEND_FAILED: true,
  /** The producer was closed before the event was sent. */
  CLOSED: false,
} as const;

export type ProducerErrorCode = keyof typeof RETRIABLE_BY_CODE;

export class ProducerError extends Error {
  override readonly name = 'ProducerError';
  readonly code: ProducerErrorCode;
  readonly retriable: boolean;
  /** For INVALID_ARGUMENT: the argument at fault, by its SDK name. */
  readonly argument: string | undefined;

  constructor(code: ProducerErrorCode, message: string, opts: { cause?: unknown; argument?: string; retriable?: boolean } = {}) {
    super(message, { cause: opts.cause });
    this.code = code;
    this.retriable = opts.retriable ?? RETRIABLE_BY_CODE[code];
    this.argument = opts.argument;
  }

  /** Brand check that survives the module being loaded twice. */
  static is(e: unknown): e is ProducerError {
    return e instanceof Error && e.name === 'ProducerError' && Object.hasOwn(RETRIABLE_BY_CODE, (e as ProducerError).code);
  }
}
