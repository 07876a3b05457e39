import { describe, expect, it } from 'vitest';
import type { Mutation, NamespaceStore, SlicePage } from '../../sinks/store/TwoLevelMapStore.ts';
import { b, expectStoreError, freshId, hex, patternBytes } from './contractHelpers.ts';
import type { ContractContext } from './twoLevelMapStoreContract.ts';

/** What a test compares of a page: keys, values and write times, and the page state. */
const render = (page: SlicePage) => ({ cells: page.cells.map((c) => `${hex(c.key)}=${hex(c.value)}@${c.writeTime}`), pageState: page.pageState });

/** `cells` cells per partition, keys 0..cells-1 as two bytes, written in one mutateMany. */
const fill = (namespace: string, sizes: ReadonlyMap<string, number>): Mutation[] =>
  [...sizes].map(([id, cells]) => ({
    namespace,
    id,
    writeTime: 5n,
    deletions: [],
    additions: Array.from({ length: cells }, (_, i) => ({ key: b(i >> 8, i & 0xff), value: b(i & 0xff, 0x5a) })),
  }));

/** `sliceMany` against `slice` of each id, one at a time. */
async function expectLikeSlices(ns: NamespaceStore, ids: readonly string[], limit: number): Promise<SlicePage[]> {
  const pages = await ns.sliceMany(ids, { limit });
  const expected = await Promise.all(ids.map(async (id) => render(await ns.slice(id, { limit }))));
  expect(pages.map(render)).toEqual(expected);
  return pages;
}

/** sliceMany: the first page of many partitions, as `slice` would answer each. */
export function describeSliceMany(ctx: () => ContractContext): void {
  describe('sliceMany', () => {
    it('answers like slice({ limit }) for each id, in order: empty, short, exactly full, longer, deleted cells, cleared, repeated', async () => {
      const { store, main } = ctx();
      const limit = 4;
      // 130 ids: more than one request of 100 ids where the backend batches.
      const sizes = new Map(Array.from({ length: 130 }, (_, i) => [freshId(`many-slices-${i % 7}`), i % 7] as const));
      await store.mutateMany(fill('c_main', sizes));
      const ids = [...sizes.keys()];
      await main.delete(ids[3] as string, b(0, 1), 6n); // 3 cells: a hole in the first page
      await main.delete(ids[6] as string, b(0, 0), 6n); // 6 cells: the look-ahead now decides
      await main.delete(ids[5] as string, b(0, 4), 6n); // 5 cells: exactly `limit` left
      await store.mutateMany([{ namespace: 'c_main', id: ids[13] as string, writeTime: 7n, clear: true, deletions: [], additions: [] }]);
      const asked = [...ids, ids[6] as string, freshId('never-written'), ids[0] as string];
      const pages = await expectLikeSlices(main, asked, limit);
      expect(pages.map((p) => p.cells.length).slice(0, 7)).toEqual([0, 1, 2, 2, 4, 4, 4]);
      expect(pages.map((p) => p.pageState !== undefined).slice(0, 7)).toEqual([false, false, false, false, false, false, true]);
      expect(pages[13]?.cells).toEqual([]);
      expect(await main.sliceMany([], { limit })).toEqual([]);
    });

    it('a page state continues its partition with slice, up to the last cell', async () => {
      const { store, main } = ctx();
      const sizes = new Map([[freshId('many-continue'), 9], [freshId('many-continue'), 3]]);
      await store.mutateMany(fill('c_main', sizes));
      const [long, short] = [...sizes.keys()] as [string, string];
      const [first, small] = await main.sliceMany([long, short], { limit: 4 });
      expect(small?.pageState).toBeUndefined();
      const second = await main.slice(long, { limit: 4, pageState: first?.pageState as string });
      const third = await main.slice(long, { limit: 4, pageState: second.pageState as string });
      expect([first, second, third].flatMap((p) => p?.cells.map((c) => hex(c.key)) ?? [])).toEqual(Array.from({ length: 9 }, (_, i) => hex(b(0, i))));
      expect(third.pageState).toBeUndefined();
    });

    it('returns large values whole where the backend chunks them', async () => {
      const { tiny } = ctx();
      const ids = [freshId('many-chunked'), freshId('many-chunked')];
      const big = [patternBytes(200, 1), patternBytes(130, 2)];
      await tiny.put(ids[0] as string, b(1), big[0] as Uint8Array, 3n);
      await tiny.put(ids[0] as string, b(2), b(9), 3n);
      await tiny.put(ids[1] as string, b(1), big[1] as Uint8Array, 3n);
      const pages = await expectLikeSlices(tiny, ids, 2);
      expect(pages.map((p) => p.cells.map((c) => hex(c.value)))).toEqual([[hex(big[0] as Uint8Array), '09'], [hex(big[1] as Uint8Array)]]);
    });

    it('reads partitions whose pages add up to more rows than one request holds', async () => {
      const { store, main } = ctx();
      const limit = 250;
      // 45 ids × 251 rows: more than the 10 000 rows one Cassandra request answers.
      const sizes = new Map(Array.from({ length: 45 }, (_, i) => [freshId(`many-wide-${i % 3}`), [251, 250, 12][i % 3] as number] as const));
      await store.mutateMany(fill('c_main', sizes));
      const pages = await expectLikeSlices(main, [...sizes.keys()], limit);
      expect(pages.map((p) => [p.cells.length, p.pageState !== undefined]).slice(0, 3)).toEqual([[250, true], [250, false], [12, false]]);
    });

    it('rejects a bad limit or id before reading', async () => {
      const { main } = ctx();
      await expectStoreError(() => main.sliceMany(['a'], { limit: 0 }), 'invalid_argument');
      await expectStoreError(() => main.sliceMany(['a'], { limit: 1.5 }), 'invalid_argument');
      await expectStoreError(() => main.sliceMany(['a', ''], { limit: 1 }), 'invalid_argument');
    });
  });
}
