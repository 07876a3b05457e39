import { describe, expect, it } from 'vitest';
import type { NamespaceStore } from '../../sinks/store/TwoLevelMapStore.ts';
import { allPages, b, expectStoreError, freshId, hex, patternBytes } from './contractHelpers.ts';
import type { ContractContext } from './twoLevelMapStoreContract.ts';

const MIB = 1024 * 1024;

async function valueOf(ns: NamespaceStore, id: string, key: Uint8Array): Promise<string | undefined> {
  const cell = await ns.get(id, key);
  return cell === undefined ? undefined : hex(cell.value);
}

/**
 * Large values: transparently chunked where the backend chunks, plain cells
 * elsewhere. Either way they must behave exactly like small ones.
 */
export function describeChunkedValues(ctx: () => ContractContext): void {
  describe('large (chunked) values', () => {
    it('a 1.5 MiB value round-trips through get and slice with its write time', async () => {
      const { main } = ctx();
      const id = freshId('big');
      const big = patternBytes(1.5 * MIB + 7, 42);
      await main.put(id, b(1), big, 100n);
      await main.put(id, b(2), b(2), 100n);
      const cell = await main.get(id, b(1));
      expect(cell?.value.length).toBe(big.length);
      expect(Buffer.from(cell?.value ?? b()).equals(Buffer.from(big))).toBe(true);
      expect(cell?.writeTime).toBe(100n);
      const page = await main.slice(id, { limit: 10 });
      expect(page.cells.map((c) => c.value.length)).toEqual([big.length, 1]);
      expect(Buffer.from(page.cells[0]?.value ?? b()).equals(Buffer.from(big))).toBe(true);
    });

    it('a newer small value replaces a large one, and older large values arriving late never come back', async () => {
      const { main } = ctx();
      const id = freshId('big-lww');
      const [l0, l1, l2] = [patternBytes(MIB, 1), patternBytes(MIB, 2), patternBytes(MIB / 2, 3)];
      await main.put(id, b(1), l1, 10n);
      await main.put(id, b(1), b(0x5a), 20n);
      expect(await valueOf(main, id, b(1))).toBe('5a');
      await main.put(id, b(1), l0, 5n);
      expect(await valueOf(main, id, b(1))).toBe('5a');
      await main.put(id, b(1), l2, 30n);
      expect(await valueOf(main, id, b(1))).toBe(hex(l2));
      await main.delete(id, b(1), 40n);
      await main.put(id, b(1), l1, 35n);
      expect(await valueOf(main, id, b(1))).toBeUndefined();
    });

    it('chunked and inline versions obey last-write-wins in both arrival orders', async () => {
      const { tiny } = ctx();
      const small = b(0x01, 0x02);
      const large = patternBytes(150, 7); // well above the tiny namespace's inline limit
      const larger = patternBytes(200, 8);
      type W = { value?: Uint8Array; at: bigint };
      const cases: [W, W, string | undefined][] = [
        [{ value: small, at: 1n }, { value: large, at: 2n }, hex(large)],
        [{ value: large, at: 1n }, { value: small, at: 2n }, hex(small)],
        [{ value: large, at: 1n }, { value: larger, at: 2n }, hex(larger)],
        [{ value: large, at: 1n }, { at: 2n }, undefined],
        [{ at: 1n }, { value: large, at: 2n }, hex(large)],
        [{ value: large, at: 2n }, { at: 2n }, undefined],
      ];
      for (const [x, y, expected] of cases) {
        for (const order of [[x, y], [y, x]]) {
          const id = freshId('chunk-lww');
          for (const w of order) {
            if (w.value) await tiny.put(id, b(1), w.value, w.at);
            else await tiny.delete(id, b(1), w.at);
          }
          expect(await valueOf(tiny, id, b(1))).toBe(expected);
        }
      }
    });

    it('equal-time writes involving a chunked value settle the same way in either arrival order', async () => {
      const { tiny } = ctx();
      const pairs: [Uint8Array, Uint8Array][] = [
        [b(0xff), patternBytes(100, 9)],
        [patternBytes(100, 10), patternBytes(120, 11)],
      ];
      for (const [x, y] of pairs) {
        const [p, q] = [freshId('chunk-tie'), freshId('chunk-tie')];
        await tiny.put(p, b(1), x, 7n);
        await tiny.put(p, b(1), y, 7n);
        await tiny.put(q, b(1), y, 7n);
        await tiny.put(q, b(1), x, 7n);
        const [vp, vq] = [await valueOf(tiny, p, b(1)), await valueOf(tiny, q, b(1))];
        expect(vp).toBe(vq);
        expect([hex(x), hex(y)]).toContain(vp);
      }
    });

    it('slice pages reassemble every chunked value', async () => {
      const { tiny } = ctx();
      const id = freshId('chunk-slice');
      const values = Array.from({ length: 9 }, (_, i) => patternBytes(60 + i * 13, 100 + i));
      await Promise.all(values.map((v, i) => tiny.put(id, b(i), v, 1n)));
      for (const order of ['asc', 'desc'] as const) {
        const { pages } = await allPages(tiny, id, { limit: 4, order });
        const got = pages.flat().map((c) => hex(c.value));
        const want = values.map(hex);
        expect(got).toEqual(order === 'asc' ? want : want.reverse());
      }
    });

    it('a value above the namespace limit is rejected as too_large and nothing is written', async () => {
      const { plain } = ctx();
      expect(plain.features.chunking).toBe(false);
      expect(plain.features.maxValueBytes).toBe(plain.features.maxInlineValueBytes);
      const id = freshId('too-large');
      const err = await expectStoreError(() => plain.put(id, b(1), new Uint8Array(plain.features.maxValueBytes + 1), 1n), 'too_large');
      expect(err.retriable).toBe(false);
      expect(await plain.get(id, b(1))).toBeUndefined();
      await plain.put(id, b(1), new Uint8Array(plain.features.maxValueBytes), 1n);
      expect((await plain.get(id, b(1)))?.value.length).toBe(plain.features.maxValueBytes);
    });
  });
}
