import cassandra from 'cassandra-driver';
import { describe, expect, it } from 'vitest';
import { StoreError, type StoreErrorCode } from '../store/StoreError.ts';
import { toStoreError } from './toStoreError.ts';

const { errors, types } = cassandra;
const codes = types.responseErrorCodes;

describe('toStoreError', () => {
  it.each<[string, unknown, StoreErrorCode, boolean]>([
    ['no host available', new errors.NoHostAvailableError({}), 'unavailable', true],
    ['client timeout', new errors.OperationTimedOutError('timed out'), 'timeout', true],
    ['busy connections', new errors.BusyConnectionError('127.0.0.1:9042', 2048, 1), 'overloaded', true],
    ['unavailable replicas', new errors.ResponseError(codes.unavailableException, 'Cannot achieve consistency'), 'unavailable', true],
    ['write timeout', new errors.ResponseError(codes.writeTimeout, 'Operation timed out'), 'timeout', true],
    ['read failure', new errors.ResponseError(codes.readFailure, 'replica failed'), 'read_failure', true],
    ['overloaded', new errors.ResponseError(codes.overloaded, 'overloaded'), 'overloaded', true],
    ['syntax error', new errors.ResponseError(codes.syntaxError, "line 1:0 no viable alternative"), 'invalid_query', false],
    ['unconfigured table', new errors.ResponseError(codes.invalid, 'unconfigured table links'), 'invalid_query', false],
    ['oversized key', new errors.ResponseError(codes.invalid, 'Key length of 70000 is longer than maximum of 65535'), 'too_large', false],
    ['oversized mutation', new errors.ResponseError(codes.invalid, 'Mutation of 20000000 bytes is too large for the maximum size of 16777216'), 'too_large', false],
    ['unauthorized', new errors.ResponseError(codes.unauthorized, 'no permission'), 'unauthorized', false],
    ['bad credentials', new errors.AuthenticationError('bad'), 'unauthorized', false],
    ['driver argument error', new errors.ArgumentError('bad param'), 'invalid_argument', false],
    ['an empty pool while the node restarts', new Error('No connection available'), 'unavailable', true],
    ['a connection closed under a request', new Error('Connection closed'), 'unavailable', true],
    // With a per-request deadline the driver does not retry on another host (FallthroughRetryPolicy), so a node
    // restart surfaces the connection's own error: DriverError 'Socket was closed' marked isSocketError.
    ['a socket closed under a request (no retry policy)', Object.assign(new Error('Socket was closed'), { name: 'DriverError', isSocketError: true }), 'unavailable', true],
    ['a reset socket', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), 'unavailable', true],
    ['some other plain Error', new Error('No connection available today'), 'internal', false],
    ['a bug', new TypeError('x is not a function'), 'internal', false],
    ['a thrown string', 'weird', 'internal', false],
  ])('maps %s to %s (retriable: %s)', (_name, thrown, code, retriable) => {
    const e = toStoreError(thrown, 'get links/alice');
    expect([e.code, e.retriable]).toEqual([code, retriable]);
    expect(e.cause).toBe(thrown);
    expect(e.message).toMatch(/^get links\/alice: /);
  });

  it('passes StoreErrors through unchanged', () => {
    const original = new StoreError('closed', 'closed');
    expect(toStoreError(original, 'x')).toBe(original);
  });
});
