import { isStoreError, StoreError, type StoreErrorCode } from '../store/StoreError.ts';

/**
 * The one place where cassandra-driver failures become StoreErrors
 * (JanusGraph's EXCEPTION_MAPPER, Benthos' GetRetryType). Errors are
 * recognised by `name` and protocol `code`, not `instanceof`, so a second copy
 * of the driver in node_modules cannot slip past. Codes: native protocol v4
 * spec section 9 (https://github.com/apache/cassandra/blob/trunk/doc/native_protocol_v4.spec).
 */

const RESPONSE_CODES: Readonly<Record<number, StoreErrorCode>> = {
  0x0000: 'server_error', // server error
  0x000a: 'internal', // protocol error: a driver bug, retrying resends the same bytes
  0x0100: 'unauthorized', // bad credentials
  0x1000: 'unavailable', // not enough live replicas
  0x1001: 'overloaded',
  0x1002: 'overloaded', // is bootstrapping
  0x1003: 'server_error', // truncate error
  0x1100: 'timeout', // write timeout
  0x1200: 'timeout', // read timeout
  0x1300: 'read_failure', // read failure, e.g. a slice over more than tombstone_failure_threshold tombstones
  0x1400: 'invalid_query', // function failure: the same call fails the same way
  0x1500: 'server_error', // write failure
  0x2000: 'invalid_query', // syntax error
  0x2100: 'unauthorized',
  0x2200: 'invalid_query', // invalid (refined below for sizes)
  0x2300: 'invalid_query', // config error
  0x2400: 'invalid_query', // already exists
  0x2500: 'server_error', // unprepared: the driver re-prepares, so a retry succeeds
};

const DRIVER_ERRORS: Readonly<Record<string, StoreErrorCode>> = {
  NoHostAvailableError: 'unavailable',
  OperationTimedOutError: 'timeout',
  BusyConnectionError: 'overloaded',
  AuthenticationError: 'unauthorized',
  ArgumentError: 'invalid_argument',
  NotSupportedError: 'invalid_query',
  DriverInternalError: 'internal',
};

// Plain Errors the driver throws while a host's pool is empty or a socket closes, e.g.
// during a node restart (lib/host-connection-pool.js borrowConnection / _onConnectionClosed):
// the node is unreachable for now, so they are as retriable as NoHostAvailableError.
const UNREACHABLE_MESSAGES = new Set(['No connection available', 'Connection closed']);
// Socket errors that surface unwrapped from the driver's connection.
const UNREACHABLE_SOCKET_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

// An oversized key or mutation is an InvalidRequest; it is permanent, never
// worth a retry (JanusGraph isKeySizeTooLarge).
const TOO_LARGE = /too large|longer than maximum|exceeds the maximum|is larger than/i;

export function toStoreError(e: unknown, context: string): StoreError {
  if (isStoreError(e)) return e;
  const code = classify(e);
  const message = e instanceof Error ? e.message : String(e);
  return new StoreError(code, `${context}: ${message}`, { cause: e });
}

function classify(e: unknown): StoreErrorCode {
  if (typeof e !== 'object' || e === null) return 'internal';
  const { name, code, message } = e as { name?: unknown; code?: unknown; message?: unknown };
  if (name === 'ResponseError' && typeof code === 'number') {
    const mapped = RESPONSE_CODES[code] ?? 'server_error';
    return mapped === 'invalid_query' && typeof message === 'string' && TOO_LARGE.test(message) ? 'too_large' : mapped;
  }
  if (typeof name === 'string' && Object.hasOwn(DRIVER_ERRORS, name)) return DRIVER_ERRORS[name] as StoreErrorCode;
  if (name === 'Error' && typeof message === 'string' && UNREACHABLE_MESSAGES.has(message)) return 'unavailable';
  if (typeof code === 'string' && UNREACHABLE_SOCKET_CODES.has(code)) return 'unavailable';
  // A socket closed under a request (lib/connection.js clearAndInvokePending): with a deadline the
  // request is not retried on another host, so this reaches us instead of NoHostAvailableError.
  if ((e as { isSocketError?: unknown }).isSocketError === true) return 'unavailable';
  // TypeError, RangeError and anything unknown: a bug, never retried.
  return 'internal';
}
