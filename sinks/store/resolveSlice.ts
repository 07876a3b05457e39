import { compareBytes } from './compareBytes.ts';
import { decodePageState, encodePageState } from './pageState.ts';
import { keySuccessor, prefixEnd } from './prefixEnd.ts';
import type { SliceOrder, SliceQuery } from './TwoLevelMapStore.ts';
import { assertLimit } from './validateArgs.ts';

/** A slice reduced to plain bounds: what a backend actually has to read. */
export interface ResolvedSlice {
  /** Inclusive lower bound (the empty key when the query had none). */
  readonly start: Uint8Array;
  /** Exclusive upper bound; undefined means "to the end". */
  readonly end: Uint8Array | undefined;
  readonly order: SliceOrder;
  readonly limit: number;
  /** True when the range holds no key at all, so no read is needed. */
  readonly empty: boolean;
}

const EMPTY = new Uint8Array(0);

/**
 * Folds the page state into the bounds: ascending pages continue at the
 * successor of the last key (inclusive), descending pages end at the last
 * key (exclusive). Backends then only ever run `start <= key < end` reads.
 */
export function resolveSlice(query: SliceQuery): ResolvedSlice {
  assertLimit(query.limit);
  const order = query.order ?? 'asc';
  let start = query.start ?? EMPTY;
  let end = query.end;
  if (query.pageState !== undefined) {
    const lastKey = decodePageState(query.pageState, order);
    if (order === 'asc') {
      const next = keySuccessor(lastKey);
      if (compareBytes(next, start) > 0) start = next;
    } else if (end === undefined || compareBytes(lastKey, end) < 0) {
      end = lastKey;
    }
  }
  const empty = end !== undefined && compareBytes(start, end) >= 0;
  return { start, end, order, limit: query.limit, empty };
}

/**
 * Cuts up to `limit + 1` rows read in order into one page: the extra row only
 * proves there is more, so the page state is present exactly when more rows
 * exist. Generic so a backend can cut raw rows before doing per-row work
 * (such as fetching chunks) on them.
 */
export function cutPage<T extends { readonly key: Uint8Array }>(
  rows: readonly T[],
  slice: ResolvedSlice,
): { readonly rows: readonly T[]; readonly pageState?: string } {
  if (rows.length <= slice.limit) return { rows };
  const page = rows.slice(0, slice.limit);
  const last = page[page.length - 1] as T;
  return { rows: page, pageState: encodePageState({ order: slice.order, lastKey: last.key }) };
}

/** The slice a prefix scan stands for: `[prefix, prefixEnd(prefix))`. */
export function prefixSliceQuery(
  prefix: Uint8Array,
  query: { readonly limit: number; readonly order?: SliceOrder; readonly pageState?: string },
): SliceQuery {
  const end = prefixEnd(prefix);
  return { ...query, start: prefix, ...(end === undefined ? {} : { end }) };
}
