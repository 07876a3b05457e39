/** Errors of these kinds are answers, not accidents: retrying the same request cannot help. */
const NOT_RETRIABLE = new Set(['PLT_KFK_AUTHENTICATION', 'PLT_KFK_USER', 'PLT_KFK_UNSUPPORTED_API', 'PLT_KFK_UNSUPPORTED', 'PLT_KFK_UNSUPPORTED_COMPRESSION', 'PLT_KFK_UNSUPPORTED_FORMAT']);
const PROTOCOL = 'PLT_KFK_PROTOCOL';

/** The error and every error inside it (a MultipleErrors' list, causes). */
function* errorsIn(e: unknown, depth = 0): Generator<Error & { code?: unknown; canRetry?: unknown }> {
  if (!(e instanceof Error) || depth > 8) return;
  yield e;
  const inner = (e as { errors?: unknown }).errors;
  if (Array.isArray(inner)) for (const x of inner) yield* errorsIn(x, depth + 1);
  yield* errorsIn(e.cause, depth + 1);
}

/**
 * Gives a @platformatic/kafka error the `retriable` flag the runtime reads (as kafkajs sets it):
 * false when the broker answered with an error the client marks as not worth retrying
 * (`canRetry: false`: a record too large, an authorization failure) or the client refused the
 * request itself (authentication, bad options, an unsupported API); true otherwise, including
 * network failures and timeouts (which the client marks `canRetry: false` too, but which kafkajs
 * retries).
 */
export function withRetriable(e: unknown): unknown {
  if (e instanceof Error && (e as { retriable?: unknown }).retriable === undefined) {
    const answered = [...errorsIn(e)].some((x) => (x.code === PROTOCOL && x.canRetry === false) || NOT_RETRIABLE.has(String(x.code)));
    Object.defineProperty(e, 'retriable', { value: !answered, enumerable: false });
  }
  return e;
}

/** An error the adapter raises itself, flagged like kafkajs' (a rebalance is retriable: the group re-joins). */
export class KafkaAdapterError extends Error {
  override readonly name = 'KafkaAdapterError';
  readonly retriable: boolean;
  constructor(message: string, retriable: boolean, options?: { cause?: unknown }) {
    super(message, options);
    this.retriable = retriable;
  }
}
