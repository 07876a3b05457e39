import { describe, expect, it } from 'vitest';
import { inputFailureRouter, repairFailureRouter } from './failureRouter.ts';
import { HEADERS, headerString } from './headers.ts';
import { message } from '../testing/fakeKafka.ts';

const topics = { repairTopic: 'p.in.repair', dlqTopic: 'p.in.dlq' };
const repairOutcome = { kind: 'repair', failedNamespaces: ['t_in'], error: 'StoreError(timeout): slow' } as const;
const at = (attempt: number) => message(7, Buffer.from('bytes'), { key: 'k', headers: { [HEADERS.attempt]: Buffer.from(String(attempt)), [HEADERS.firstFailureAt]: Buffer.from('1000'), [HEADERS.sourceTopic]: Buffer.from('p.in') } });
const source = { topic: 'p.in.repair', partition: 1, offset: '7' };

describe('inputFailureRouter', () => {
  it('routes done and deferred records nowhere', () => {
    const route = inputFailureRouter(topics);
    expect(route(message(1, Buffer.from('x')), source, { kind: 'done' }, 5)).toBeUndefined();
    expect(route(message(1, Buffer.from('x')), source, { kind: 'defer', untilMs: 9 }, 5)).toBeUndefined();
  });

  it('keys a repair record by the routing key its outcome names (else the original key); a DLQ record keeps the original key', () => {
    const route = inputFailureRouter(topics);
    const nullKeyed = message(1, Buffer.from('x'));
    expect(route(nullKeyed, source, { ...repairOutcome, routingKey: 'src' }, 5)).toMatchObject({ topic: 'p.in.repair', key: 'src' });
    expect(route(message(1, Buffer.from('x'), { key: 'k' }), source, repairOutcome, 5)).toMatchObject({ topic: 'p.in.repair', key: Buffer.from('k') });
    expect(route(nullKeyed, source, { kind: 'dead-letter', reason: 'invalid', error: 'no' }, 5)).toMatchObject({ topic: 'p.in.dlq', key: null });
  });
});

describe('repairFailureRouter', () => {
  const route = repairFailureRouter({ ...topics, maxAttempts: 3 });

  it('re-publishes a failed repair as the next attempt, keeping the first failure time and the original source', () => {
    const record = route(at(1), source, repairOutcome, 5_000);
    expect(record).toMatchObject({ topic: 'p.in.repair', key: Buffer.from('k'), value: Buffer.from('bytes'), timestamp: '5000' });
    expect(headerString(record?.headers, HEADERS.attempt)).toBe('2');
    expect(headerString(record?.headers, HEADERS.firstFailureAt)).toBe('1000');
    expect(headerString(record?.headers, HEADERS.sourceTopic)).toBe('p.in');
  });

  it('parks the event in the DLQ when the last allowed attempt fails, with the last error', () => {
    const record = route(at(3), source, repairOutcome, 5_000);
    expect(record?.topic).toBe('p.in.dlq');
    expect(headerString(record?.headers, HEADERS.dlqReason)).toBe('repair_exhausted');
    expect(headerString(record?.headers, HEADERS.dlqError)).toBe('gave up after 3 repair attempts: StoreError(timeout): slow');
    expect(headerString(record?.headers, HEADERS.dlqSourceTopic)).toBe('p.in.repair');
  });

  it('dead-letters at once what repairing cannot fix', () => {
    const record = route(at(1), source, { kind: 'dead-letter', reason: 'store_rejected', error: 'too large' }, 5_000);
    expect(headerString(record?.headers, HEADERS.dlqReason)).toBe('store_rejected');
  });

  it('treats a record without an attempt header as attempt 1', () => {
    expect(headerString(route(message(1, Buffer.from('x')), source, repairOutcome, 5)?.headers, HEADERS.attempt)).toBe('2');
  });
});
