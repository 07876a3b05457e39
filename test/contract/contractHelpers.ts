import { expect } from 'vitest';
import { isStoreError, type StoreError, type StoreErrorCode } from '../../sinks/store/StoreError.ts';
import type { Cell, NamespaceStore, SliceQuery } from '../../sinks/store/TwoLevelMapStore.ts';

/** Small helpers for the store contract suite: byte literals, readable diffs, paging, error checks. */

/** Values of the contract's `c_tiny` namespace above this many bytes are chunked (16-byte chunks) where the backend chunks. */
export const TINY_INLINE_BYTES = 48;

export const b = (...bytes: number[]): Uint8Array => Uint8Array.from(bytes);

export const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

export const keysOf = (cells: readonly Cell[]): string[] => cells.map((c) => hex(c.key));

/** Deterministic pseudo-random bytes (xorshift), so a failing value can be reproduced. */
export function patternBytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed | 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

let counter = 0;
const runTag = Math.random().toString(36).slice(2, 8);

/** A partition id no other test (or earlier run against the same keyspace) uses. */
export function freshId(label: string): string {
  counter += 1;
  return `${label}-${runTag}-${counter}`;
}

/** Every page of a slice, following page states until there are none. */
export async function allPages(
  ns: NamespaceStore,
  id: string,
  query: SliceQuery,
  maxPages = 1000,
): Promise<{ pages: Cell[][]; states: (string | undefined)[] }> {
  const pages: Cell[][] = [];
  const states: (string | undefined)[] = [];
  let pageState: string | undefined;
  do {
    const page = await ns.slice(id, { ...query, ...(pageState === undefined ? {} : { pageState }) });
    pages.push([...page.cells]);
    states.push(page.pageState);
    pageState = page.pageState;
  } while (pageState !== undefined && pages.length < maxPages);
  return { pages, states };
}

/** All live cells of a partition, ascending. */
export async function everything(ns: NamespaceStore, id: string): Promise<Cell[]> {
  const { pages } = await allPages(ns, id, { limit: 500 });
  return pages.flat();
}

/** Asserts that `action` throws or rejects with a StoreError of `code`, and returns it. */
export async function expectStoreError(action: () => unknown, code: StoreErrorCode): Promise<StoreError> {
  let caught: unknown;
  try {
    await action();
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected a StoreError '${code}'`).toBeDefined();
  expect(isStoreError(caught), `expected a StoreError, got ${String(caught)}`).toBe(true);
  const err = caught as StoreError;
  expect(err.code, err.message).toBe(code);
  return err;
}
