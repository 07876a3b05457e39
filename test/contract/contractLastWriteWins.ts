import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Cell, NamespaceStore } from '../../sinks/store/TwoLevelMapStore.ts';
import { b, everything, freshId, hex, TINY_INLINE_BYTES } from './contractHelpers.ts';
import { applyOp, expectedState, modelKey, modelOpsArbitrary, type ModelOp } from './lwwModel.ts';
import type { ContractContext } from './twoLevelMapStoreContract.ts';

type Write = { readonly put: Uint8Array; readonly at: bigint } | { readonly del: true; readonly at: bigint };

/** Applies `writes` to key 0x01 of a fresh partition in the given order; returns the value left (hex) or null. */
async function outcome(ns: NamespaceStore, writes: readonly Write[]): Promise<string | null> {
  const id = freshId('lww');
  for (const w of writes) {
    if ('put' in w) await ns.put(id, b(1), w.put, w.at);
    else await ns.delete(id, b(1), w.at);
  }
  const cell = await ns.get(id, b(1));
  return cell === undefined ? null : hex(cell.value);
}

/** The outcome of both arrival orders of two writes. */
async function bothOrders(ns: NamespaceStore, x: Write, y: Write): Promise<[string | null, string | null]> {
  return [await outcome(ns, [x, y]), await outcome(ns, [y, x])];
}

/** Last-write-wins on the caller's write time, whatever the arrival order. */
export function describeLastWriteWins(ctx: () => ContractContext): void {
  describe('last write wins on write time', () => {
    it('put/put: the later write time wins in either arrival order', async () => {
      expect(await bothOrders(ctx().main, { put: b(0x0a), at: 10n }, { put: b(0x0b), at: 20n })).toEqual(['0b', '0b']);
    });

    it('put/delete: a later delete hides the put in either arrival order', async () => {
      expect(await bothOrders(ctx().main, { put: b(0x0a), at: 10n }, { del: true, at: 20n })).toEqual([null, null]);
    });

    it('delete/put: a later put survives an earlier delete in either arrival order', async () => {
      expect(await bothOrders(ctx().main, { del: true, at: 10n }, { put: b(0x0a), at: 20n })).toEqual(['0a', '0a']);
    });

    it('a delete wins a tie with a put at the same write time', async () => {
      expect(await bothOrders(ctx().main, { put: b(0x0a), at: 10n }, { del: true, at: 10n })).toEqual([null, null]);
    });

    it('between equal-time puts the greater bytes win, compared unsigned (0x80 over 0x7f)', async () => {
      expect(await bothOrders(ctx().main, { put: b(0x7f, 0xff), at: 10n }, { put: b(0x80), at: 10n })).toEqual(['80', '80']);
      expect(await bothOrders(ctx().main, { put: b(0x01), at: 10n }, { put: b(0x01, 0x00), at: 10n })).toEqual(['0100', '0100']);
    });

    it('get reports the write time of the winning put', async () => {
      const { main } = ctx();
      const id = freshId('lww-time');
      await main.put(id, b(1), b(2), 30n);
      await main.put(id, b(1), b(1), 20n);
      expect((await main.get(id, b(1)))?.writeTime).toBe(30n);
    });

    it('deleting a missing key leaves a tombstone that hides older puts arriving later', async () => {
      expect(await outcome(ctx().main, [{ del: true, at: 50n }, { put: b(1), at: 49n }, { put: b(2), at: 50n }])).toBeNull();
    });

    it('repeating writes changes nothing', async () => {
      const writes: Write[] = [{ put: b(1), at: 5n }, { del: true, at: 4n }, { put: b(2), at: 3n }];
      expect(await outcome(ctx().main, [...writes, ...writes, ...writes])).toBe('01');
    });

    it('random puts and deletes in shuffled arrival orders converge to the last-write-wins model', async () => {
      const { store, tiny, options } = ctx();
      const maxInline = tiny.features.maxInlineValueBytes;
      await fc.assert(
        fc.asyncProperty(modelOpsArbitrary(Math.min(maxInline, TINY_INLINE_BYTES)), async (ops) => {
          const [sequential, concurrent] = [freshId('model'), freshId('model')];
          for (const op of [...ops].sort((x, y) => x.arrival - y.arrival)) await applyOp(store, tiny, sequential, op);
          await Promise.all([...ops].reverse().map((op) => applyOp(store, tiny, concurrent, op)));
          const [s, c] = [await everything(tiny, sequential), await everything(tiny, concurrent)];
          expect(summary(c)).toEqual(summary(s));
          assertMatchesModel(s, ops, maxInline);
        }),
        { numRuns: options.modelRuns, endOnFailure: true },
      );
    });
  });
}

export function summary(cells: readonly Cell[]): string[] {
  return cells.map((c) => `${hex(c.key)}=${hex(c.value)}@${c.writeTime}`);
}

export function assertMatchesModel(cells: readonly Cell[], ops: readonly ModelOp[], maxInline: number): void {
  const byKey = new Map(cells.map((c) => [hex(c.key), c]));
  expect(cells.length).toBe(byKey.size);
  expectedState(ops, maxInline).forEach((expected, k) => {
    const cell = byKey.get(hex(modelKey(k)));
    byKey.delete(hex(modelKey(k)));
    if (expected.kind === 'absent') {
      expect(cell, `key ${k} should be absent`).toBeUndefined();
      return;
    }
    expect(cell, `key ${k} should be present`).toBeDefined();
    expect(cell?.writeTime).toBe(expected.writeTime);
    const got = hex(cell?.value ?? b());
    if (expected.kind === 'exact') expect(got).toBe(hex(expected.value));
    else expect(expected.values.map(hex)).toContain(got);
  });
  expect([...byKey.keys()], 'no keys beyond the model').toEqual([]);
}
