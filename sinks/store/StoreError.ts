/**
 * The one error class of the storage layer. Every backend turns whatever it
 * caught into a StoreError in exactly one place (its `toStoreError`), so the
 * runtime decides retries from `retriable` alone and never from driver types.
 */

/**
 * The closed vocabulary of store failures and whether retrying can help.
 * Retriable means "the same call, repeated later, may succeed and is safe to
 * repeat" (every write is idempotent under write timestamps); permanent means
 * it will fail the same way again (a programmer or config error, or data that
 * can never fit).
 */
export const STORE_ERROR_CODES = {
  /** No replica reachable, or not enough replicas alive for the consistency level. */
  unavailable: { retriable: true },
  /** The client or the coordinator gave up waiting for replicas. */
  timeout: { retriable: true },
  /** The server asked the client to back off (overloaded, bootstrapping, busy connections). */
  overloaded: { retriable: true },
  /** A replica failed while serving the request (write failure, server error). */
  server_error: { retriable: true },
  /**
   * A replica failed while serving a read (Cassandra ReadFailure), most often
   * because the read crossed `tombstone_failure_threshold` row tombstones: it
   * fails the same way until compaction purges them, so readers of derived
   * data (the `*_recent` index) rebuild the answer from its source instead.
   */
  read_failure: { retriable: true },
  /** A chunked value's chunks were missing or did not match their digest, even after re-reading. */
  chunks_missing: { retriable: true },
  /** Some writes of a `mutateMany` failed; `failures` says which and why. */
  partial_failure: { retriable: true },
  /** The backend rejected the statement itself (syntax, schema mismatch, missing table). */
  invalid_query: { retriable: false },
  /** A key, id or value is larger than the backend will ever accept. */
  too_large: { retriable: false },
  /** Authentication or authorization failed. */
  unauthorized: { retriable: false },
  /** An argument broke the port's contract (empty id, bad limit, foreign page state...). */
  invalid_argument: { retriable: false },
  /** The store configuration failed validation; the message names the field. */
  invalid_config: { retriable: false },
  /** The namespace is not declared in the store's configuration. */
  unknown_namespace: { retriable: false },
  /** A stored value cannot be decoded (unknown metadata format). */
  corrupt_value: { retriable: false },
  /** The store was closed. */
  closed: { retriable: false },
  /** A bug (TypeError, RangeError...) or an error nobody classified. Never retried. */
  internal: { retriable: false },
} as const satisfies Record<string, { retriable: boolean }>;

export type StoreErrorCode = keyof typeof STORE_ERROR_CODES;

/** One failed group of a `mutateMany` call: the input indexes it came from and why it failed. */
export interface MutationFailure {
  readonly mutationIndexes: readonly number[];
  readonly error: StoreError;
}

export interface StoreErrorOptions {
  readonly cause?: unknown;
  /** Only for `partial_failure`. */
  readonly failures?: readonly MutationFailure[];
}

export class StoreError extends Error {
  override readonly name = 'StoreError';
  readonly code: StoreErrorCode;
  readonly retriable: boolean;
  readonly failures: readonly MutationFailure[];

  constructor(code: StoreErrorCode, message: string, options: StoreErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.failures = options.failures ?? [];
    this.retriable =
      code === 'partial_failure'
        ? this.failures.every((f) => f.error.retriable)
        : STORE_ERROR_CODES[code].retriable;
  }
}

/**
 * Brand check by name and code rather than `instanceof`, so it still works
 * when the module is loaded twice (tRPC/Drizzle do the same).
 */
export function isStoreError(e: unknown): e is StoreError {
  if (typeof e !== 'object' || e === null) return false;
  const candidate = e as { name?: unknown; code?: unknown };
  return (
    candidate.name === 'StoreError' &&
    typeof candidate.code === 'string' &&
    Object.hasOwn(STORE_ERROR_CODES, candidate.code)
  );
}
