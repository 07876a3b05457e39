import { StoreError } from './StoreError.ts';

/**
 * Argument checks shared by every backend, so the same call is rejected the
 * same way everywhere and before anything is written. Limits follow
 * Cassandra's: partition keys and clustering keys are at most 65535 bytes,
 * and an empty partition key is not a key.
 */
export const MAX_ID_BYTES = 65_535;
export const MAX_KEY_BYTES = 65_535;
/** The largest page a slice may ask for; walk bigger ranges with page states. */
export const MAX_SLICE_LIMIT = 100_000;
export const MAX_WRITE_TIME = 2n ** 63n - 1n;

export function assertId(id: string): void {
  if (typeof id !== 'string' || id.length === 0) {
    throw new StoreError('invalid_argument', 'partition id must be a non-empty string');
  }
  // A UTF-16 unit is at most 3 UTF-8 bytes: only long ids need counting.
  if (id.length * 3 > MAX_ID_BYTES && Buffer.byteLength(id, 'utf8') > MAX_ID_BYTES) {
    throw new StoreError('too_large', `partition id is longer than ${MAX_ID_BYTES} UTF-8 bytes`);
  }
}

export function assertKey(key: Uint8Array): void {
  if (!(key instanceof Uint8Array)) throw new StoreError('invalid_argument', 'key must be a Uint8Array');
  if (key.length > MAX_KEY_BYTES) {
    throw new StoreError('too_large', `key of ${key.length} bytes is longer than ${MAX_KEY_BYTES}`);
  }
}

export function assertValue(value: Uint8Array, maxValueBytes: number): void {
  if (!(value instanceof Uint8Array)) throw new StoreError('invalid_argument', 'value must be a Uint8Array');
  if (value.length > maxValueBytes) {
    throw new StoreError('too_large', `value of ${value.length} bytes is larger than the ${maxValueBytes} bytes allowed`);
  }
}

export function assertWriteTime(writeTime: bigint): void {
  if (typeof writeTime !== 'bigint' || writeTime < 0n || writeTime > MAX_WRITE_TIME) {
    throw new StoreError('invalid_argument', `writeTime must be a bigint in [0, 2^63-1], got ${String(writeTime)}`);
  }
}

export function assertLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SLICE_LIMIT) {
    throw new StoreError('invalid_argument', `limit must be an integer in [1, ${MAX_SLICE_LIMIT}], got ${limit}`);
  }
}

/** `n` of deleteNewest/keepNewest: 0 is allowed and means "none"/"keep none". */
export function assertCount(n: number): void {
  if (!Number.isInteger(n) || n < 0 || n > MAX_SLICE_LIMIT) {
    throw new StoreError('invalid_argument', `n must be an integer in [0, ${MAX_SLICE_LIMIT}], got ${n}`);
  }
}

/** Checks one mutation of `mutateMany`; `maxValueBytes` is its namespace's limit. */
export function assertMutation(
  m: {
    readonly id: string;
    readonly writeTime: bigint;
    readonly clear?: boolean;
    readonly clearPrefix?: Uint8Array;
    readonly deletions: readonly Uint8Array[];
    readonly additions: readonly { readonly key: Uint8Array; readonly value: Uint8Array }[];
  },
  maxValueBytes: number,
): void {
  assertId(m.id);
  assertWriteTime(m.writeTime);
  if (m.clear !== undefined && typeof m.clear !== 'boolean') {
    throw new StoreError('invalid_argument', `a mutation's clear must be a boolean when present, got ${typeof m.clear}`);
  }
  if (m.clearPrefix !== undefined) {
    if (m.clear !== true) throw new StoreError('invalid_argument', "a mutation's clearPrefix needs clear: true");
    assertKey(m.clearPrefix);
  }
  if (!Array.isArray(m.deletions) || !Array.isArray(m.additions)) {
    throw new StoreError('invalid_argument', 'a mutation needs deletions and additions arrays');
  }
  for (const key of m.deletions) assertKey(key);
  for (const { key, value } of m.additions) {
    assertKey(key);
    assertValue(value, maxValueBytes);
  }
}
