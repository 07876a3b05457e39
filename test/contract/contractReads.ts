import { describe, expect, it } from 'vitest';
import type { NamespaceStore } from '../../sinks/store/TwoLevelMapStore.ts';
import { allPages, b, everything, expectStoreError, freshId, hex, keysOf, patternBytes } from './contractHelpers.ts';
import type { ContractContext } from './twoLevelMapStoreContract.ts';

/** put/get, unsigned byte order, range bounds, paging and prefix scans. */
export function describeReads(ctx: () => ContractContext): void {
  describe('put and get', () => {
    it('get returns the value and write time of the put', async () => {
      const { main } = ctx();
      const id = freshId('get');
      await main.put(id, b(1, 2), b(0xaa, 0xbb), 1_700_000_000_000_000n);
      const cell = await main.get(id, b(1, 2));
      expect(cell && { key: hex(cell.key), value: hex(cell.value), writeTime: cell.writeTime }).toEqual({
        key: '0102',
        value: 'aabb',
        writeTime: 1_700_000_000_000_000n,
      });
    });

    it('get of a missing key or an unknown partition is undefined', async () => {
      const { main } = ctx();
      const id = freshId('missing');
      await main.put(id, b(1), b(1), 1n);
      expect(await main.get(id, b(2))).toBeUndefined();
      expect(await main.get(id, b(1, 0))).toBeUndefined();
      expect(await main.get(freshId('never-written'), b(1))).toBeUndefined();
    });

    it('the empty key and the empty value are ordinary cells, and the empty key sorts first', async () => {
      const { main } = ctx();
      const id = freshId('empty');
      await main.put(id, b(0), b(9), 1n);
      await main.put(id, b(), b(), 1n);
      expect(hex((await main.get(id, b()))?.value ?? b(0xee))).toBe('');
      expect(keysOf(await everything(main, id))).toEqual(['', '00']);
    });

    it('partitions and namespaces are independent maps', async () => {
      const { main, tiny } = ctx();
      const [p, q] = [freshId('indep'), freshId('indep')];
      await main.put(p, b(1), b(0x0a), 1n);
      await main.put(q, b(1), b(0x0b), 1n);
      await tiny.put(p, b(1), b(0x0c), 1n);
      expect(hex((await main.get(p, b(1)))?.value ?? b())).toBe('0a');
      expect(hex((await main.get(q, b(1)))?.value ?? b())).toBe('0b');
      expect(hex((await tiny.get(p, b(1)))?.value ?? b())).toBe('0c');
      expect(await tiny.get(q, b(1))).toBeUndefined();
    });

    it('getCells answers like get for each cell, in order: present, absent, deleted, repeated, chunked, scattered, many', async () => {
      const { main, tiny } = ctx();
      const ids = Array.from({ length: 250 }, (_, i) => freshId(`cells-${i % 5}`));
      for (const [i, id] of ids.entries()) {
        if (i % 5 === 0) continue; // never written
        await main.put(id, b(7), b(i & 0xff, i >> 8), BigInt(i + 1));
        await main.put(id, b(i & 0xff), b(0xee, i & 0xff), BigInt(i + 2)); // a key of its own
        if (i % 5 === 1) await main.delete(id, b(7), BigInt(i + 1));
      }
      const wide = freshId('cells-wide');
      for (let k = 0; k < 300; k += 2) await main.put(wide, b(1, k >> 8, k & 0xff), b(k & 0xff), 3n);
      const asked = [
        ...ids.map((id) => ({ id, key: b(7) })), // one key of many partitions
        ...ids.map((id, i) => ({ id, key: b(i & 0xff) })), // scattered keys: the product holds pairs nobody asked for
        ...ids.map((id, i) => ({ id, key: b((i + 1) & 0xff) })), // present in other partitions only
        ...Array.from({ length: 300 }, (_, k) => ({ id: wide, key: b(1, k >> 8, k & 0xff) })), // more keys than one request packs
        { id: ids[3] as string, key: b(7) },
        { id: ids[0] as string, key: b(0) },
      ];
      const render = (c: { value: Uint8Array; writeTime: bigint } | undefined) => (c === undefined ? '-' : `${hex(c.value)}@${c.writeTime}`);
      const expected = await Promise.all(asked.map(async ({ id, key }) => render(await main.get(id, key))));
      expect((await main.getCells(asked)).map(render)).toEqual(expected);
      expect(expected.filter((e) => e !== '-')).toHaveLength(150 + 200 + 150 + 1);
      expect(await main.getCells([])).toEqual([]);
      const big = Array.from({ length: 3 }, (_, i) => patternBytes(200 + i, i));
      const chunkedIds = [freshId('cells-chunked'), freshId('cells-chunked'), freshId('cells-chunked')];
      for (const [i, id] of chunkedIds.entries()) await tiny.put(id, b(1), big[i] as Uint8Array, 3n);
      const chunkedCells = [...chunkedIds.map((id) => ({ id, key: b(1) })), { id: freshId('none'), key: b(1) }, { id: chunkedIds[0] as string, key: b(2) }];
      expect((await tiny.getCells(chunkedCells)).map((c) => c && hex(c.value))).toEqual([...big.map(hex), undefined, undefined]);
    });

    it('getKeys answers like get for each key of one partition, in order: present, absent, deleted, repeated, chunked, many', async () => {
      const { main, tiny } = ctx();
      const id = freshId('keys');
      const other = freshId('keys-other');
      const keys = Array.from({ length: 1_200 }, (_, i) => b(i >> 8, i & 0xff));
      for (const [i, key] of keys.entries()) {
        if (i % 5 === 0) continue; // never written
        await main.put(id, key, b(i & 0xff, 1), BigInt(i + 1));
        if (i % 5 === 1) await main.delete(id, key, BigInt(i + 1));
        if (i % 5 === 2) await main.put(other, key, b(0xee), 1n); // the same key in another partition
      }
      const asked = [...keys, keys[3] as Uint8Array, keys[0] as Uint8Array, b(0xff, 0xff, 0xff)];
      const render = (c: { key: Uint8Array; value: Uint8Array; writeTime: bigint } | undefined) => (c === undefined ? '-' : `${hex(c.key)}=${hex(c.value)}@${c.writeTime}`);
      const expected = await Promise.all(asked.map(async (key) => render(await main.get(id, key))));
      expect((await main.getKeys(id, asked)).map(render)).toEqual(expected);
      expect(expected.filter((e) => e !== '-')).toHaveLength(720 + 1);
      expect(await main.getKeys(id, [])).toEqual([]);
      expect(await main.getKeys(freshId('keys-never'), [b(1)])).toEqual([undefined]);
      const chunked = freshId('keys-chunked');
      const big = Array.from({ length: 3 }, (_, i) => patternBytes(200 + i, i));
      for (const [i, value] of big.entries()) await tiny.put(chunked, b(i), value, 3n);
      expect((await tiny.getKeys(chunked, [b(2), b(9), b(0), b(1)])).map((c) => c && hex(c.value))).toEqual([hex(big[2] as Uint8Array), undefined, hex(big[0] as Uint8Array), hex(big[1] as Uint8Array)]);
      await expectStoreError(() => main.getKeys('', [b(1)]), 'invalid_argument');
    });

    it('neither the written nor the returned buffers are shared with the store', async () => {
      const { main } = ctx();
      const id = freshId('buffers');
      const key = b(5);
      const value = b(1, 2, 3);
      await main.put(id, key, value, 1n);
      value[0] = 0xff;
      key[0] = 6;
      const first = await main.get(id, b(5));
      first?.value.fill(0);
      expect(hex((await main.get(id, b(5)))?.value ?? b())).toBe('010203');
    });
  });

  describe('byte order and range bounds', () => {
    const ORDERED = ['', '00', '7f', '7f00', '7fff', '80', '8000', 'ff', 'ffff'];

    it('keys sort unsigned lexicographically: 0x7f < 0x80 < 0xff, a prefix before its extensions', async () => {
      const { main } = ctx();
      const id = freshId('order');
      for (const k of [...ORDERED].reverse()) await main.put(id, Buffer.from(k, 'hex'), b(1), 1n);
      expect(keysOf((await main.slice(id, { limit: 100 })).cells)).toEqual(ORDERED);
      expect(keysOf((await main.slice(id, { limit: 100, order: 'desc' })).cells)).toEqual([...ORDERED].reverse());
    });

    it('start is inclusive and end is exclusive, in both orders', async () => {
      const { main, id } = await tenKeys(ctx().main);
      expect(keysOf((await main.slice(id, { start: b(3), end: b(7), limit: 100 })).cells)).toEqual(['03', '04', '05', '06']);
      expect(keysOf((await main.slice(id, { start: b(3), end: b(7), limit: 100, order: 'desc' })).cells)).toEqual([
        '06', '05', '04', '03',
      ]);
      expect(keysOf((await main.slice(id, { start: b(8), limit: 100 })).cells)).toEqual(['08', '09']);
      expect(keysOf((await main.slice(id, { end: b(2), limit: 100, order: 'desc' })).cells)).toEqual(['01', '00']);
    });

    it('bounds need not be stored keys', async () => {
      const { main, id } = await tenKeys(ctx().main);
      const cells = (await main.slice(id, { start: b(3, 0x80), end: b(6, 0x01), limit: 100 })).cells;
      expect(keysOf(cells)).toEqual(['04', '05', '06']);
    });

    it('empty ranges return no cells and no page state', async () => {
      const { main, id } = await tenKeys(ctx().main);
      for (const query of [
        { start: b(4), end: b(4), limit: 5 },
        { start: b(7), end: b(3), limit: 5 },
        { start: b(4, 1), end: b(5), limit: 5, order: 'desc' as const },
        { start: b(0x20), limit: 5 },
      ]) {
        const page = await main.slice(id, query);
        expect(page.cells).toEqual([]);
        expect(page.pageState).toBeUndefined();
      }
      expect((await main.slice(freshId('nothing'), { limit: 5 })).cells).toEqual([]);
    });

    it('limit keeps the first cells of the requested order', async () => {
      const { main, id } = await tenKeys(ctx().main);
      expect(keysOf((await main.slice(id, { limit: 2 })).cells)).toEqual(['00', '01']);
      expect(keysOf((await main.slice(id, { limit: 2, order: 'desc' })).cells)).toEqual(['09', '08']);
    });
  });

  describe('paging', () => {
    it('pages cover the range exactly once and in order, in both orders', async () => {
      const { main } = ctx();
      const id = freshId('paging');
      const keys = Array.from({ length: 25 }, (_, i) => b(0x40, i * 3));
      await Promise.all(keys.map((k) => main.put(id, k, k, 1n)));
      const asc = keys.map(hex);
      for (const order of ['asc', 'desc'] as const) {
        const { pages, states } = await allPages(main, id, { limit: 7, order });
        expect(pages.map((p) => p.length)).toEqual([7, 7, 7, 4]);
        expect(states.map((s) => s !== undefined)).toEqual([true, true, true, false]);
        expect(keysOf(pages.flat())).toEqual(order === 'asc' ? asc : [...asc].reverse());
      }
      const bounded = await allPages(main, id, { start: b(0x40, 9), end: b(0x40, 60), limit: 4, order: 'desc' });
      expect(keysOf(bounded.pages.flat())).toEqual(asc.filter((k) => k >= '4009' && k < '403c').reverse());
    });

    it('the page state is absent when a page ends exactly at the last cell', async () => {
      const { main } = ctx();
      const id = freshId('exact-page');
      for (let i = 0; i < 6; i++) await main.put(id, b(i), b(i), 1n);
      const { pages, states } = await allPages(main, id, { limit: 3 });
      expect(pages.map((p) => p.length)).toEqual([3, 3]);
      expect(states[1]).toBeUndefined();
      expect((await main.slice(id, { limit: 6 })).pageState).toBeUndefined();
    });

    it('cells written between pages appear if and only if they sort after the last key returned', async () => {
      const { main } = ctx();
      const id = freshId('paging-writes');
      for (const k of [1, 3, 5, 7]) await main.put(id, b(k), b(k), 1n);
      const first = await main.slice(id, { limit: 2 });
      await main.put(id, b(2), b(2), 1n);
      await main.put(id, b(6), b(6), 1n);
      const rest = await main.slice(id, { limit: 10, pageState: first.pageState as string });
      expect(keysOf([...first.cells, ...rest.cells])).toEqual(['01', '03', '05', '06', '07']);
    });

    it('a page state of the other order, or a malformed one, is rejected', async () => {
      const { main } = ctx();
      const id = freshId('bad-state');
      for (let i = 0; i < 4; i++) await main.put(id, b(i), b(i), 1n);
      const { pageState } = await main.slice(id, { limit: 2 });
      expect(pageState).toBeDefined();
      const err = await expectStoreError(() => main.slice(id, { limit: 2, order: 'desc', pageState: pageState as string }), 'invalid_argument');
      expect(err.retriable).toBe(false);
      await expectStoreError(() => main.slice(id, { limit: 2, pageState: 'not a page state' }), 'invalid_argument');
    });
  });

  describe('prefix scans', () => {
    const KEYS = ['00ff', '01', '0100', '01ff', '01ffff', '02', 'ff', 'ff00', 'ffff'];

    it('return exactly the keys that start with the prefix, including after 0xff bytes', async () => {
      const { main } = ctx();
      const id = freshId('prefix');
      for (const k of KEYS) await main.put(id, Buffer.from(k, 'hex'), b(1), 1n);
      const scan = async (prefix: Uint8Array): Promise<string[]> => keysOf((await main.scanPrefix(id, prefix, { limit: 100 })).cells);
      expect(await scan(b(1))).toEqual(['01', '0100', '01ff', '01ffff']);
      expect(await scan(b(1, 0xff))).toEqual(['01ff', '01ffff']);
      expect(await scan(b(0xff))).toEqual(['ff', 'ff00', 'ffff']);
      expect(await scan(b(3))).toEqual([]);
      expect(await scan(b())).toEqual(KEYS);
    });

    it('page in both orders', async () => {
      const { main } = ctx();
      const id = freshId('prefix-pages');
      for (const k of KEYS) await main.put(id, Buffer.from(k, 'hex'), b(1), 1n);
      const seen: string[] = [];
      let pageState: string | undefined;
      do {
        const page = await main.scanPrefix(id, b(1), { limit: 3, order: 'desc', ...(pageState ? { pageState } : {}) });
        seen.push(...keysOf(page.cells));
        pageState = page.pageState;
      } while (pageState !== undefined);
      expect(seen).toEqual(['01ffff', '01ff', '0100', '01']);
    });
  });
}

/** A fresh partition holding keys 0x00..0x09. */
async function tenKeys(main: NamespaceStore): Promise<{ main: NamespaceStore; id: string }> {
  const id = freshId('ten');
  await Promise.all(Array.from({ length: 10 }, (_, i) => main.put(id, b(i), b(i), 1n)));
  return { main, id };
}
