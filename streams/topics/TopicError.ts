const CODES = {
  /** An existing topic has a different partition count than the config says (a `fixed` setting changed). */
  PARTITION_MISMATCH: false,
  /** Partition leaders did not appear in time after creation. */
  LEADERS_UNAVAILABLE: true,
} as const;

export type TopicErrorCode = keyof typeof CODES;

/** The one error `ensureTopics` throws for a problem it diagnosed (broker errors pass through as kafkajs errors). */
export class TopicError extends Error {
  override readonly name = 'TopicError';
  readonly code: TopicErrorCode;
  readonly retriable: boolean;

  constructor(code: TopicErrorCode, message: string, opts: { cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.code = code;
    this.retriable = CODES[code];
  }
}
