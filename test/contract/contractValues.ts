import { describe, expect, it } from 'vitest';
import type { KeyValue, Mutation, SlicePage } from '../../sinks/store/TwoLevelMapStore.ts';
import { b, freshId, hex, patternBytes, TINY_INLINE_BYTES } from './contractHelpers.ts';
import type { ContractContext } from './twoLevelMapStoreContract.ts';

/** Key and value only: what `values` promises of a cell, whatever else a backend returns. */
const kv = (c: KeyValue | undefined): string | undefined => (c === undefined ? undefined : `${hex(c.key)}=${hex(c.value)}`);
const page = (p: SlicePage<KeyValue>) => ({ cells: p.cells.map(kv), pageState: p.pageState });

/** values(name): the namespace's reads without write times, answering exactly as the cell reads do. */
export function describeValues(ctx: () => ContractContext): void {
  describe('values', () => {
    it('answers get, getKeys, slice (both orders, bounded, paged) and sliceMany like the cell reads, inline and chunked values alike', async () => {
      const { store } = ctx();
      for (const name of ['c_main', 'c_tiny']) {
        const cells = store.namespace(name);
        const values = store.values(name);
        expect(values.namespace).toBe(name);
        const ids = [freshId(`values-${name}-a`), freshId(`values-${name}-b`), freshId(`values-${name}-none`)];
        const fill = (id: string, writeTime: bigint, n: number): Mutation => ({
          namespace: name,
          id,
          writeTime,
          deletions: [],
          // Every third value is larger than the tiny namespace's inline limit: chunked there.
          additions: Array.from({ length: n }, (_, i) => ({ key: b(i), value: i % 3 === 0 ? patternBytes(TINY_INLINE_BYTES * 3, i) : b(i, 7) })),
        });
        await store.mutateMany([fill(ids[0] as string, 5n, 12), fill(ids[1] as string, 6n, 3)]);
        await cells.delete(ids[0] as string, b(4), 9n);
        await cells.put(ids[0] as string, b(6), b(6, 6, 6), 10n);

        for (const key of [b(0), b(1), b(4), b(6), b(99)]) expect(kv(await values.get(ids[0] as string, key))).toBe(kv(await cells.get(ids[0] as string, key)));
        const keys = [b(6), b(0), b(4), b(99), b(3), b(0)];
        expect((await values.getKeys(ids[0] as string, keys)).map(kv)).toEqual((await cells.getKeys(ids[0] as string, keys)).map(kv));
        for (const query of [{ limit: 5 }, { limit: 5, order: 'desc' as const }, { limit: 100, start: b(2), end: b(9) }, { limit: 3, order: 'desc' as const, end: b(8) }]) {
          const first = await values.slice(ids[0] as string, query);
          expect(page(first)).toEqual(page(await cells.slice(ids[0] as string, query)));
          if (first.pageState !== undefined) {
            const next = { ...query, pageState: first.pageState };
            expect(page(await values.slice(ids[0] as string, next))).toEqual(page(await cells.slice(ids[0] as string, next)));
          }
        }
        expect((await values.sliceMany(ids, { limit: 4 })).map(page)).toEqual((await cells.sliceMany(ids, { limit: 4 })).map(page));
      }
    });
  });
}
