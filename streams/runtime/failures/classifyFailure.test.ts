import { KafkaJSError, KafkaJSNonRetriableError } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../../sinks/store/index.ts';
import { DecodeError, EncodeError } from '../../serde/index.ts';
import { classifyFailure, type Boundary, type Decision } from './classifyFailure.ts';
import { PipelineError } from './PipelineError.ts';

const partial = (...codes: ('timeout' | 'too_large' | 'unknown_namespace')[]) =>
  new StoreError('partial_failure', 'some failed', { failures: codes.map((code, i) => ({ mutationIndexes: [i], error: new StoreError(code, 'x') })) });

const cases: [string, Boundary, unknown, Decision][] = [
  ['a bad magic byte is the record’s fault', 'decode', new DecodeError('BAD_MAGIC_BYTE', 'x'), 'dead-letter'],
  ['an unknown schema id is the record’s fault', 'decode', new DecodeError('UNKNOWN_SCHEMA_ID', 'x'), 'dead-letter'],
  ['a registry outage retries the batch', 'decode', new DecodeError('REGISTRY_UNAVAILABLE', 'x'), 'retry-batch'],
  ['a TypeError while decoding is a bug', 'decode', new TypeError('x'), 'fatal'],
  ['any processor throw dead-letters, even a TypeError', 'process', new TypeError('x'), 'dead-letter'],
  ['a store timeout is retried', 'store', new StoreError('timeout', 'x'), 'retry'],
  ['an unavailable store is retried', 'store', new StoreError('unavailable', 'x'), 'retry'],
  ['a partial failure of retriable groups is retried', 'store', partial('timeout', 'timeout'), 'retry'],
  ['a partial failure is as bad as its worst group: dead-letter', 'store', partial('timeout', 'too_large'), 'dead-letter'],
  ['a partial failure is as bad as its worst group: fatal', 'store', partial('too_large', 'unknown_namespace'), 'fatal'],
  ['a too-large value is the event’s fault', 'store', new StoreError('too_large', 'x'), 'dead-letter'],
  ['an invalid argument is the event’s fault', 'store', new StoreError('invalid_argument', 'x'), 'dead-letter'],
  ['an unknown namespace is a deployment error', 'store', new StoreError('unknown_namespace', 'x'), 'fatal'],
  ['a closed store is fatal', 'store', new StoreError('closed', 'x'), 'fatal'],
  ['a TypeError from the store is never retried', 'store', new TypeError('x'), 'fatal'],
  ['a RangeError from the store is never retried', 'store', new RangeError('x'), 'fatal'],
  ['an emit that does not match its schema dead-letters', 'encode', new EncodeError('INVALID_VALUE', 'x'), 'dead-letter'],
  ['a registry outage while encoding retries the batch', 'encode', new EncodeError('REGISTRY_UNAVAILABLE', 'x'), 'retry-batch'],
  ['a retriable Kafka error is retried', 'produce', new KafkaJSError('x', { retriable: true }), 'retry'],
  ['a non-retriable Kafka error goes to repair', 'produce', new KafkaJSNonRetriableError('x'), 'repair'],
  ['a TypeError while producing is a bug', 'produce', new TypeError('x'), 'fatal'],
  ['a failed hand-off retries the batch', 'handoff', new KafkaJSError('x'), 'retry-batch'],
  ['a RangeError during hand-off is a bug', 'handoff', new RangeError('x'), 'fatal'],
  ['a failed offset fetch (admin) is retried', 'admin', new KafkaJSError('x'), 'retry'],
  ['a TypeError while fetching offsets is a bug', 'admin', new TypeError('x'), 'fatal'],
  ['a FATAL PipelineError stays fatal anywhere', 'store', new PipelineError('FATAL', 'x'), 'fatal'],
  ['a BATCH_RETRY PipelineError retries the batch anywhere', 'produce', new PipelineError('BATCH_RETRY', 'x'), 'retry-batch'],
];

describe('classifyFailure', () => {
  it.each(cases)('%s', (_name, boundary, error, expected) => {
    expect(classifyFailure(boundary, error)).toBe(expected);
  });
});
