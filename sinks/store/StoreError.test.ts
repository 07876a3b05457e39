import { describe, expect, it } from 'vitest';
import { isStoreError, StoreError } from './StoreError.ts';

describe('StoreError', () => {
  it('takes retriable from its code and keeps the cause', () => {
    const cause = new Error('driver said no');
    const e = new StoreError('timeout', 'read timed out', { cause });
    expect([e.name, e.code, e.retriable, e.cause]).toEqual(['StoreError', 'timeout', true, cause]);
    expect(new StoreError('too_large', 'x').retriable).toBe(false);
  });

  it('a partial failure is retriable only if every failed part is', () => {
    const part = (code: 'timeout' | 'invalid_query') => ({ mutationIndexes: [0], error: new StoreError(code, code) });
    expect(new StoreError('partial_failure', 'x', { failures: [part('timeout'), part('timeout')] }).retriable).toBe(true);
    expect(new StoreError('partial_failure', 'x', { failures: [part('timeout'), part('invalid_query')] }).retriable).toBe(false);
  });

  it('is recognised by brand, not by class identity', () => {
    expect(isStoreError({ name: 'StoreError', code: 'closed', message: 'copy from another module instance' })).toBe(true);
    expect(isStoreError({ name: 'StoreError', code: 'made_up' })).toBe(false);
    expect(isStoreError(new Error('plain'))).toBe(false);
    expect(isStoreError(undefined)).toBe(false);
  });
});
