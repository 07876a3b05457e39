/**
 * The runtime's own error, thrown out of a kafkajs `eachBatch` to tell the
 * consumer what to do with the batch. kafkajs reads `retriable`:
 * - BATCH_RETRY (retriable): nothing of the chunk was committed; kafkajs backs
 *   off, re-fetches from the last resolved offset and re-delivers it.
 * - FATAL (not retriable): a bug or a deployment error (unknown namespace,
 *   closed store, missing emit schema) that retrying or dead-lettering cannot
 *   fix; the consumer stops without committing and the runtime reports it.
 */
const RETRIABLE_BY_CODE = { BATCH_RETRY: true, FATAL: false } as const;

export type PipelineErrorCode = keyof typeof RETRIABLE_BY_CODE;

export class PipelineError extends Error {
  override readonly name = 'PipelineError';
  readonly code: PipelineErrorCode;
  readonly retriable: boolean;

  constructor(code: PipelineErrorCode, message: string, opts: { cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.code = code;
    this.retriable = RETRIABLE_BY_CODE[code];
  }

  static is(e: unknown): e is PipelineError {
    return e instanceof Error && e.name === 'PipelineError' && Object.hasOwn(RETRIABLE_BY_CODE, (e as PipelineError).code);
  }
}

/** A one-line description of any thrown value, for logs and headers. */
export function describeError(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    return `${e.name}${typeof code === 'string' ? `(${code})` : ''}: ${e.message}`;
  }
  return String(e);
}
