import { describe, expect, it } from 'vitest';
import { decodePageState, encodePageState } from './pageState.ts';
import { cutPage, prefixSliceQuery, resolveSlice } from './resolveSlice.ts';
import { isStoreError } from './StoreError.ts';

const hex = (u: Uint8Array | undefined): string | undefined => (u === undefined ? undefined : Buffer.from(u).toString('hex'));
const bytes = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));

describe('page states', () => {
  it('round-trip the last key and remember the order', () => {
    const state = encodePageState({ order: 'desc', lastKey: bytes('00ff80') });
    expect(state).toMatch(/^d1\./);
    expect(hex(decodePageState(state, 'desc'))).toBe('00ff80');
    expect(() => decodePageState(state, 'asc')).toThrow(/issued for order 'desc'/);
  });

  it.each(['', 'x1.AA', 'a2.AA', 'a1.$$$'])('reject malformed state %j as invalid_argument', (state) => {
    try {
      decodePageState(state, 'asc');
      expect.unreachable();
    } catch (e) {
      expect(isStoreError(e) && e.code).toBe('invalid_argument');
    }
  });
});

describe('resolveSlice', () => {
  it('defaults to ascending from the empty key to the end', () => {
    const r = resolveSlice({ limit: 3 });
    expect({ start: hex(r.start), end: hex(r.end), order: r.order, empty: r.empty }).toEqual({
      start: '',
      end: undefined,
      order: 'asc',
      empty: false,
    });
  });

  it('continues an ascending page just after the last key', () => {
    const pageState = encodePageState({ order: 'asc', lastKey: bytes('05') });
    const r = resolveSlice({ start: bytes('01'), end: bytes('09'), limit: 3, pageState });
    expect([hex(r.start), hex(r.end)]).toEqual(['0500', '09']);
  });

  it('continues a descending page below the last key', () => {
    const pageState = encodePageState({ order: 'desc', lastKey: bytes('05') });
    const r = resolveSlice({ start: bytes('01'), end: bytes('09'), limit: 3, order: 'desc', pageState });
    expect([hex(r.start), hex(r.end)]).toEqual(['01', '05']);
  });

  it('marks empty and inverted ranges as empty', () => {
    expect(resolveSlice({ start: bytes('05'), end: bytes('05'), limit: 1 }).empty).toBe(true);
    expect(resolveSlice({ start: bytes('06'), end: bytes('05'), limit: 1 }).empty).toBe(true);
    const last = encodePageState({ order: 'desc', lastKey: bytes('01') });
    expect(resolveSlice({ start: bytes('01'), limit: 1, order: 'desc', pageState: last }).empty).toBe(true);
  });

  it('rejects limits outside [1, MAX_SLICE_LIMIT]', () => {
    for (const limit of [0, -1, 1.5, Number.NaN, 1e9]) expect(() => resolveSlice({ limit })).toThrow(/limit must be/);
  });
});

describe('cutPage', () => {
  const rows = ['01', '02', '03'].map((k) => ({ key: bytes(k) }));
  const slice = (limit: number) => resolveSlice({ limit });

  it('sets a page state only when a row beyond the limit was read', () => {
    const cut = cutPage(rows, slice(2));
    expect(cut.rows.map((r) => hex(r.key))).toEqual(['01', '02']);
    expect(hex(decodePageState(cut.pageState as string, 'asc'))).toBe('02');
    expect(cutPage(rows, slice(3)).pageState).toBeUndefined();
  });
});

describe('prefixSliceQuery', () => {
  it('leaves the end open when the prefix has no successor', () => {
    expect(hex(prefixSliceQuery(bytes('ff'), { limit: 1 }).end)).toBeUndefined();
    expect(hex(prefixSliceQuery(bytes('0aff'), { limit: 1 }).end)).toBe('0b');
  });
});
