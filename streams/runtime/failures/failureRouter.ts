import type { ConsumedRecord } from '../../kafka/index.ts';
import type { LogicalTopic } from '../../../processors/index.ts';
import { dlqTopicOf, repairTopicOf, topicName } from '../../topics/index.ts';
import { dlqHeaders, readRepairState, repairHeaders, type RecordSource } from './headers.ts';
import type { OutRecord, RecordOutcome } from '../stages/pipelineTypes.ts';

/** Turns a failed record into the record that makes its failure durable (repair or DLQ), or undefined when it is done. */
export type FailureRouter = (message: ConsumedRecord, source: RecordSource, outcome: RecordOutcome, nowMs: number) => OutRecord | undefined;

export interface FailureTopics {
  readonly repairTopic: string;
  readonly dlqTopic: string;
}

/** `<input>.repair` and `<input>.dlq` under the topic prefix. */
export function failureTopicsOf(prefix: string, input: LogicalTopic): FailureTopics {
  return { repairTopic: topicName(prefix, repairTopicOf(input)), dlqTopic: topicName(prefix, dlqTopicOf(input)) };
}

/**
 * The input runtime's router: a dead-letter outcome goes to the DLQ, a repair
 * outcome to the repair topic as attempt 1. Bytes and headers are kept, and
 * the key unless the outcome names a routing key (then the repair record is
 * keyed by it; the original record stays findable by the source headers);
 * the record timestamp is now (the repair back-off counts from it).
 */
export function inputFailureRouter({ repairTopic, dlqTopic }: FailureTopics): FailureRouter {
  return (message, source, outcome, nowMs) => {
    switch (outcome.kind) {
      case 'done':
      case 'defer':
        return undefined;
      case 'dead-letter':
        return toDlq(dlqTopic, message, source, outcome, nowMs);
      case 'repair':
        return toRepair(repairTopic, message, source, outcome, { attempt: 1, firstFailureAtMs: nowMs }, nowMs);
    }
  };
}

/**
 * The repair runner's router: a failed repair is re-published with
 * attempt+1 (first-failure time kept), until `maxAttempts` repairs have
 * failed; then the event is parked in the DLQ with the last error.
 */
export function repairFailureRouter({ repairTopic, dlqTopic, maxAttempts }: FailureTopics & { readonly maxAttempts: number }): FailureRouter {
  return (message, source, outcome, nowMs) => {
    if (outcome.kind === 'done' || outcome.kind === 'defer') return undefined;
    if (outcome.kind === 'dead-letter') return toDlq(dlqTopic, message, source, outcome, nowMs);
    const state = readRepairState(message.headers);
    const attempt = Math.max(1, state.attempt);
    if (attempt >= maxAttempts) {
      return toDlq(dlqTopic, message, source, {
        kind: 'dead-letter',
        reason: 'repair_exhausted',
        error: `gave up after ${attempt} repair attempts: ${outcome.error}`,
      }, nowMs);
    }
    return toRepair(repairTopic, message, source, outcome, { attempt: attempt + 1, firstFailureAtMs: state.firstFailureAtMs ?? nowMs }, nowMs);
  };
}

/** The record that hands an event to the repair topic: its routing key (else the original key), original bytes and headers, plus the repair state. */
function toRepair(
  repairTopic: string,
  message: ConsumedRecord,
  source: RecordSource,
  outcome: Extract<RecordOutcome, { kind: 'repair' }>,
  state: { readonly attempt: number; readonly firstFailureAtMs: number },
  nowMs: number,
): OutRecord {
  return {
    topic: repairTopic,
    key: outcome.routingKey ?? message.key,
    value: message.value,
    timestamp: String(nowMs),
    headers: repairHeaders(message.headers, { ...state, failedNamespaces: outcome.failedNamespaces, error: outcome.error, source }),
  };
}

function toDlq(
  dlqTopic: string,
  message: ConsumedRecord,
  source: RecordSource,
  outcome: Extract<RecordOutcome, { kind: 'dead-letter' }>,
  nowMs: number,
): OutRecord {
  return {
    topic: dlqTopic,
    key: message.key,
    value: message.value,
    timestamp: String(nowMs),
    headers: dlqHeaders(message.headers, {
      reason: outcome.reason,
      error: outcome.error,
      ...(outcome.field === undefined ? {} : { field: outcome.field }),
      source,
    }),
  };
}
