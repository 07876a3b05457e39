import { describe, expect, it } from 'vitest';
import { dlqHeaders, HEADERS, headerString, MAX_ERROR_HEADER_CHARS, readRepairState, repairHeaders } from './headers.ts';

const source = { topic: 'p.edge-mutations', partition: 2, offset: '41' };

describe('repairHeaders', () => {
  it('keeps the original headers and adds attempt, first failure, sorted distinct namespaces, error and source', () => {
    const headers = repairHeaders({ traceparent: Buffer.from('00-abc') }, {
      attempt: 1,
      firstFailureAtMs: 1_700_000_000_000,
      failedNamespaces: ['follows_in', 'follows_out', 'follows_in'],
      error: 'StoreError(timeout): x',
      source,
    });
    expect(headers).toEqual({
      traceparent: Buffer.from('00-abc'),
      [HEADERS.attempt]: '1',
      [HEADERS.firstFailureAt]: '1700000000000',
      [HEADERS.failedNamespaces]: 'follows_in,follows_out',
      [HEADERS.error]: 'StoreError(timeout): x',
      [HEADERS.sourceTopic]: 'p.edge-mutations',
      [HEADERS.sourcePartition]: '2',
      [HEADERS.sourceOffset]: '41',
    });
  });

  it('keeps the first source on later attempts (the record now comes from the repair topic)', () => {
    const first = repairHeaders(undefined, { attempt: 1, firstFailureAtMs: 5, failedNamespaces: [], error: 'e', source });
    const asConsumed = Object.fromEntries(Object.entries(first).map(([k, v]) => [k, Buffer.from(String(v))]));
    const second = repairHeaders(asConsumed, {
      attempt: 2,
      firstFailureAtMs: 5,
      failedNamespaces: ['x'],
      error: 'e2',
      source: { topic: 'p.edge-mutations.repair', partition: 0, offset: '7' },
    });
    expect(headerString(second, HEADERS.sourceTopic)).toBe('p.edge-mutations');
    expect(headerString(second, HEADERS.sourceOffset)).toBe('41');
    expect(headerString(second, HEADERS.attempt)).toBe('2');
  });

  it('cuts long errors to the header limit', () => {
    const headers = repairHeaders(undefined, { attempt: 1, firstFailureAtMs: 1, failedNamespaces: [], error: 'x'.repeat(5_000), source });
    expect(headerString(headers, HEADERS.error)).toHaveLength(MAX_ERROR_HEADER_CHARS);
  });
});

describe('dlqHeaders', () => {
  it('adds reason, field, error and the source coordinates to the original headers', () => {
    expect(dlqHeaders({ a: 'b' }, { reason: 'invalid', field: 'src', error: 'must not be empty', source })).toEqual({
      a: 'b',
      [HEADERS.dlqReason]: 'invalid',
      [HEADERS.dlqField]: 'src',
      [HEADERS.dlqError]: 'must not be empty',
      [HEADERS.dlqSourceTopic]: 'p.edge-mutations',
      [HEADERS.dlqSourcePartition]: '2',
      [HEADERS.dlqSourceOffset]: '41',
    });
  });

  it('has no field header when the reason has no field', () => {
    expect(dlqHeaders({ [HEADERS.dlqField]: 'stale' }, { reason: 'undecodable', error: 'bad magic', source })).not.toHaveProperty(HEADERS.dlqField);
  });
});

describe('readRepairState', () => {
  it.each([
    [undefined, { attempt: 0, firstFailureAtMs: undefined }],
    [{ [HEADERS.attempt]: Buffer.from('3'), [HEADERS.firstFailureAt]: Buffer.from('1700') }, { attempt: 3, firstFailureAtMs: 1700 }],
    [{ [HEADERS.attempt]: Buffer.from('-1') }, { attempt: 0, firstFailureAtMs: undefined }],
    [{ [HEADERS.attempt]: Buffer.from('two') }, { attempt: 0, firstFailureAtMs: undefined }],
  ])('reads %o as %o', (headers, expected) => {
    expect(readRepairState(headers)).toEqual(expected);
  });
});
