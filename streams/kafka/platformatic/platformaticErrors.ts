import { findErrorBy } from '@platformatic/kafka';

/**
 * Gives a @platformatic/kafka error the `retriable` flag the runtime reads (as kafkajs sets it):
 * false when the client marked it, or an error inside it, as not worth retrying (`canRetry: false`).
 */
export function withRetriable(e: unknown): unknown {
  if (e instanceof Error && (e as { retriable?: unknown }).retriable === undefined) {
    Object.defineProperty(e, 'retriable', { value: findErrorBy(e, 'canRetry', false) === null, enumerable: false });
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
