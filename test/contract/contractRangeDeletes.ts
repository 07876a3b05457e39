import { describe, expect, it } from 'vitest';
import type { NamespaceStore } from '../../sinks/store/TwoLevelMapStore.ts';
import { b, everything, freshId, keysOf } from './contractHelpers.ts';
import type { ContractContext } from './twoLevelMapStoreContract.ts';

/** A fresh partition holding keys 0x00..0x09 written at time 10. */
async function tenKeys(ns: NamespaceStore): Promise<string> {
  const id = freshId('newest');
  await Promise.all(Array.from({ length: 10 }, (_, i) => ns.put(id, b(i), b(i), 10n)));
  return id;
}

const range = (from: number, to: number): string[] =>
  Array.from({ length: to - from }, (_, i) => (from + i).toString(16).padStart(2, '0'));

/** deleteNewest / keepNewest: "newest" means the greatest keys. */
export function describeRangeDeletes(ctx: () => ContractContext): void {
  describe('deleteNewest and keepNewest', () => {
    it('deleteNewest deletes the n greatest keys and reports how many it saw', async () => {
      const { main } = ctx();
      const id = await tenKeys(main);
      expect(await main.deleteNewest(id, 3, 20n)).toBe(3);
      expect(keysOf(await everything(main, id))).toEqual(range(0, 7));
      expect(await main.deleteNewest(id, 0, 20n)).toBe(0);
      expect(keysOf(await everything(main, id))).toEqual(range(0, 7));
      expect(await main.deleteNewest(id, 100, 20n)).toBe(7);
      expect(await everything(main, id)).toEqual([]);
      expect(await main.deleteNewest(freshId('empty'), 5, 20n)).toBe(0);
    });

    it('keepNewest keeps only the n greatest keys and reports how many it kept', async () => {
      const { main } = ctx();
      const id = await tenKeys(main);
      expect(await main.keepNewest(id, 4, 20n)).toBe(4);
      expect(keysOf(await everything(main, id))).toEqual(range(6, 10));
      expect(await main.keepNewest(id, 9, 20n)).toBe(4);
      expect(keysOf(await everything(main, id))).toEqual(range(6, 10));
      expect(await main.keepNewest(id, 0, 20n)).toBe(0);
      expect(await everything(main, id)).toEqual([]);
    });

    it('range deletes obey write times: cells written later survive them', async () => {
      const { main } = ctx();
      const id = await tenKeys(main);
      await main.put(id, b(9), b(0x99), 30n);
      expect(await main.deleteNewest(id, 3, 20n)).toBe(3);
      expect(keysOf(await everything(main, id))).toEqual([...range(0, 7), '09']);
      await main.put(id, b(2), b(0x22), 30n);
      expect(await main.keepNewest(id, 2, 20n)).toBe(2);
      expect(keysOf(await everything(main, id))).toEqual(['02', '06', '09']);
    });

    it('older puts into a range-deleted range that arrive later stay hidden', async () => {
      const { main } = ctx();
      if (!main.features.rangeDeletes) return;
      const id = await tenKeys(main);
      await main.deleteNewest(id, 3, 20n); // deletes keys >= 0x07 at 20
      await main.put(id, b(8), b(8), 15n);
      await main.put(id, b(0x20), b(0x20), 20n);
      await main.put(id, b(0x21), b(0x21), 21n);
      await main.keepNewest(id, 2, 20n); // keeps 0x21 and 0x06: deletes keys < 0x06 at 20
      await main.put(id, b(1), b(1), 19n);
      expect(keysOf(await everything(main, id))).toEqual(['06', '21']);
    });
  });
}
