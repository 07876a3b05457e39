import { isStoreError, type StoreErrorCode } from '../../../sinks/store/index.ts';
import { DecodeError, EncodeError } from '../../serde/index.ts';
import { PipelineError } from './PipelineError.ts';

/** Where in the pipeline something failed. */
export type Boundary =
  /** Turning Kafka bytes into an event (serde). */
  | 'decode'
  /** `processor.reads`/`process` (pure code: a throw is a bug or a poison event). */
  | 'process'
  /** Point reads and writes through the store port. */
  | 'store'
  /** Encoding an emitted event (serde). */
  | 'encode'
  /** Producing emitted events. */
  | 'produce'
  /** Producing to the repair topic or the DLQ, the step that makes a failure durable. */
  | 'handoff'
  /** Reading consumer-group offsets (Kafka admin), e.g. the cascade asking how far the fan-out got. */
  | 'admin';

/**
 * What the runtime does about a failure:
 * - `retry`: back off and repeat, within the retry budget; then hand to repair.
 * - `repair`: hand the event to the repair topic now (retrying here cannot help).
 * - `dead-letter`: the event itself is at fault; DLQ it and move on.
 * - `retry-batch`: commit nothing, let kafkajs re-deliver the chunk.
 * - `fatal`: a bug or deployment error; stop consuming without committing.
 */
export type Decision = 'retry' | 'repair' | 'dead-letter' | 'retry-batch' | 'fatal';

/** Store failures that are the event's fault (its ids, keys or values), not the deployment's. */
const EVENT_FAULT_STORE_CODES: ReadonlySet<StoreErrorCode> = new Set(['invalid_argument', 'too_large', 'corrupt_value']);

const PROGRAMMER_ERRORS = new Set(['TypeError', 'RangeError', 'ReferenceError', 'SyntaxError']);

/**
 * The one place the runtime's error policy is decided, per boundary. Retries
 * are driven by the `retriable` flags the layers below set in exactly one
 * place each (`toStoreError`, `toDecodeError`, kafkajs); programmer errors
 * (TypeError, RangeError...) are never retried and never dead-lettered as if
 * they were the event's fault, except inside pure processor code.
 */
export function classifyFailure(boundary: Boundary, e: unknown): Decision {
  if (PipelineError.is(e)) return e.code === 'FATAL' ? 'fatal' : 'retry-batch';
  switch (boundary) {
    case 'process':
      return 'dead-letter';
    case 'decode':
      if (DecodeError.is(e)) return e.retriable ? 'retry-batch' : 'dead-letter';
      return 'fatal';
    case 'store':
      if (!isStoreError(e)) return 'fatal';
      if (e.code === 'partial_failure') return worstOf(e.failures.map((f) => classifyFailure('store', f.error)));
      if (e.retriable) return 'retry';
      return EVENT_FAULT_STORE_CODES.has(e.code) ? 'dead-letter' : 'fatal';
    case 'encode':
      // Registry down: like decoding, retry the chunk rather than fail events whose bytes are fine.
      if (EncodeError.is(e)) return e.retriable ? 'retry-batch' : 'dead-letter';
      return 'fatal';
    case 'produce':
      if (isProgrammerError(e)) return 'fatal';
      return isRetriableKafkaError(e) ? 'retry' : 'repair';
    case 'handoff':
      return isProgrammerError(e) ? 'fatal' : 'retry-batch';
    case 'admin':
      return isProgrammerError(e) ? 'fatal' : 'retry';
  }
}

/** A partial failure is as bad as its worst group: fatal, then dead-letter, then retry. */
function worstOf(decisions: readonly Decision[]): Decision {
  if (decisions.includes('fatal')) return 'fatal';
  return decisions.includes('dead-letter') ? 'dead-letter' : 'retry';
}

function isProgrammerError(e: unknown): boolean {
  return e instanceof Error && PROGRAMMER_ERRORS.has(e.name);
}

/** kafkajs marks its errors `retriable`; a KafkaJSNonRetriableError (or a wrapped one) says false. */
function isRetriableKafkaError(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { retriable?: unknown }).retriable !== false;
}
