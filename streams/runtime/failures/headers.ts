import type { RecordHeaders } from '../../kafka/index.ts';

/** Header names the runtime writes; values are UTF-8 strings. */
export const HEADERS = {
  /** Repair: which repair attempt this record is (1 for the first). */
  attempt: 'edgestream-attempt',
  /** Repair: when the event first failed, milliseconds since the epoch. */
  firstFailureAt: 'edgestream-first-failure-at',
  /** Repair: the namespaces (or `topic:<name>` for emits) whose writes failed, comma-separated. */
  failedNamespaces: 'edgestream-failed-namespaces',
  /** Repair: the last error, one line. */
  error: 'edgestream-error',
  /** Repair: where the event was first consumed from. */
  sourceTopic: 'edgestream-source-topic',
  sourcePartition: 'edgestream-source-partition',
  sourceOffset: 'edgestream-source-offset',
  /** DLQ: why the event was parked (a `DlqReason`). */
  dlqReason: 'edgestream-dlq-reason',
  /** DLQ: the offending field path, for `invalid` events. */
  dlqField: 'edgestream-dlq-field',
  /** DLQ: the error or validation message. */
  dlqError: 'edgestream-dlq-error',
  /** DLQ: the record this DLQ record was made from. */
  dlqSourceTopic: 'edgestream-dlq-source-topic',
  dlqSourcePartition: 'edgestream-dlq-source-partition',
  dlqSourceOffset: 'edgestream-dlq-source-offset',
  /** Forwarded: the partition a record was found in before it was forwarded to its routing key's partition. */
  forwardedFrom: 'edgestream-forwarded-from',
  /** `edgestream replay --force` re-published this record: the operator accepted event times past the resurrection horizon (value `1`). */
  replayForced: 'edgestream-replay-forced',
} as const;

/** Why an event was dead-lettered (closed vocabulary; the `edgestream-dlq-reason` header). */
export type DlqReason =
  /** Not decodable: bad magic byte, unknown schema id, record too large, bad length, bad payload, wrong schema, null value. */
  | 'undecodable'
  /** Decoded but failed validation; `edgestream-dlq-field` names the field. */
  | 'invalid'
  /** The processor threw (a bug or a poison event). */
  | 'processor_error'
  /** The store rejected the event's reads or writes as never acceptable (too large, invalid argument). */
  | 'store_rejected'
  /** An event the processor emitted does not match its schema. */
  | 'emit_rejected'
  /** The repair runner gave up after `repairMaxAttempts`. */
  | 'repair_exhausted'
  /** The cascade runner could not run for a reason retrying cannot fix (its gate cell never came after the fan-out passed the event, or paging was refused). */
  | 'cascade_failed'
  /** A split stage (planner, splitter, verifier) failed for a reason retrying cannot fix. */
  | 'split_failed';

/** Longest error text put into a header; longer messages are cut (headers are not a log). */
export const MAX_ERROR_HEADER_CHARS = 1_000;

export interface RecordSource {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
}

export interface RepairState {
  /** The attempt number of this record (0 when the record is not a repair record). */
  readonly attempt: number;
  /** When the event first failed (ms); undefined when it has not failed yet. */
  readonly firstFailureAtMs: number | undefined;
}

/** The header value as a string (kafkajs hands headers over as Buffers). */
export function headerString(headers: RecordHeaders | undefined, name: string): string | undefined {
  const raw = headers?.[name];
  const one = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  return one === undefined ? undefined : one.toString();
}

/** Whether a record was re-published by `edgestream replay --force` (ValidationContext `replayForced`). */
export function isReplayForced(headers: RecordHeaders | undefined): boolean {
  return headerString(headers, HEADERS.replayForced) === '1';
}

/** Reads the repair state a record carries; a missing or malformed attempt counts as 0 (never repaired). */
export function readRepairState(headers: RecordHeaders | undefined): RepairState {
  const attempt = Number(headerString(headers, HEADERS.attempt) ?? '0');
  const first = Number(headerString(headers, HEADERS.firstFailureAt) ?? 'NaN');
  return {
    attempt: Number.isInteger(attempt) && attempt >= 0 ? attempt : 0,
    firstFailureAtMs: Number.isFinite(first) ? first : undefined,
  };
}

export function truncateError(text: string): string {
  return text.length <= MAX_ERROR_HEADER_CHARS ? text : `${text.slice(0, MAX_ERROR_HEADER_CHARS - 1)}…`;
}

/**
 * Headers of a repair record: the original headers, the source of the first
 * failure (kept across attempts), and this attempt's number and error.
 */
export function repairHeaders(
  original: RecordHeaders | undefined,
  args: {
    readonly attempt: number;
    readonly firstFailureAtMs: number;
    readonly failedNamespaces: readonly string[];
    readonly error: string;
    readonly source: RecordSource;
  },
): RecordHeaders {
  const keepsSource = headerString(original, HEADERS.sourceTopic) !== undefined;
  return {
    ...copyHeaders(original),
    [HEADERS.attempt]: String(args.attempt),
    [HEADERS.firstFailureAt]: String(args.firstFailureAtMs),
    [HEADERS.failedNamespaces]: [...new Set(args.failedNamespaces)].sort().join(','),
    [HEADERS.error]: truncateError(args.error),
    ...(keepsSource
      ? {}
      : {
          [HEADERS.sourceTopic]: args.source.topic,
          [HEADERS.sourcePartition]: String(args.source.partition),
          [HEADERS.sourceOffset]: args.source.offset,
        }),
  };
}

/** Headers of a DLQ record: the original headers plus the reason and the record it came from. */
export function dlqHeaders(
  original: RecordHeaders | undefined,
  args: { readonly reason: DlqReason; readonly error: string; readonly field?: string; readonly source: RecordSource },
): RecordHeaders {
  const headers: RecordHeaders = {
    ...copyHeaders(original),
    [HEADERS.dlqReason]: args.reason,
    [HEADERS.dlqError]: truncateError(args.error),
    [HEADERS.dlqSourceTopic]: args.source.topic,
    [HEADERS.dlqSourcePartition]: String(args.source.partition),
    [HEADERS.dlqSourceOffset]: args.source.offset,
  };
  if (args.field !== undefined) headers[HEADERS.dlqField] = args.field;
  else delete headers[HEADERS.dlqField];
  return headers;
}

/** A shallow copy; header values are never mutated, only replaced. */
function copyHeaders(original: RecordHeaders | undefined): RecordHeaders {
  return { ...(original ?? {}) };
}
