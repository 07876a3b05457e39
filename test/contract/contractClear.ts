import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KeyValue, Mutation, NamespaceStore, TwoLevelMapStore } from '../../sinks/store/TwoLevelMapStore.ts';
import { b, everything, expectStoreError, freshId, hex, patternBytes, TINY_INLINE_BYTES } from './contractHelpers.ts';
import { assertMatchesModel, summary } from './contractLastWriteWins.ts';
import { applyOp, modelOpsArbitrary } from './lwwModel.ts';
import type { ContractContext } from './twoLevelMapStoreContract.ts';

/** A `{ clear: true }` mutation of partition `id` of `ns`. */
const clearOf = (ns: NamespaceStore, id: string, writeTime: bigint, more: { deletions?: Uint8Array[]; additions?: KeyValue[] } = {}): Mutation => ({
  namespace: ns.namespace,
  id,
  writeTime,
  clear: true,
  deletions: more.deletions ?? [],
  additions: more.additions ?? [],
});

const clear = (store: TwoLevelMapStore, ns: NamespaceStore, id: string, writeTime: bigint): Promise<void> =>
  store.mutateMany([clearOf(ns, id, writeTime)]);

/** The live cells of a partition as `key=value@time`. */
const state = async (ns: NamespaceStore, id: string): Promise<string[]> => summary(await everything(ns, id));

/** `Mutation.clear`: a partition tombstone, written before the mutation's deletions and additions. */
export function describeClear(ctx: () => ContractContext): void {
  describe('mutateMany clear', () => {
    it('hides every cell written at or before its time, chunked values included, in every namespace', async () => {
      const { store, main, tiny, plain } = ctx();
      for (const ns of [main, tiny, plain]) {
        const id = freshId('clear-older');
        await ns.put(id, b(1), b(1), 10n);
        await ns.put(id, b(2), patternBytes(TINY_INLINE_BYTES + 40, 1), 20n); // chunked in c_tiny
        await ns.put(id, b(3), b(3), 20n);
        await clear(store, ns, id, 20n);
        expect(await state(ns, id), ns.namespace).toEqual([]);
        expect(await ns.get(id, b(2)), ns.namespace).toBeUndefined();
      }
    });

    it('leaves cells written after it, in either arrival order', async () => {
      const { store, tiny } = ctx();
      const big = patternBytes(TINY_INLINE_BYTES + 30, 2);
      const [first, second] = [freshId('clear-newer'), freshId('clear-newer')];
      await tiny.put(first, b(1), b(1), 5n);
      await tiny.put(first, b(2), big, 21n);
      await tiny.put(first, b(3), b(3), 21n);
      await clear(store, tiny, first, 20n);
      await clear(store, tiny, second, 20n);
      await tiny.put(second, b(1), b(1), 5n);
      await tiny.put(second, b(2), big, 21n);
      await tiny.put(second, b(3), b(3), 21n);
      const expected = [`02=${hex(big)}@21`, '03=03@21'];
      expect(await state(tiny, first)).toEqual(expected);
      expect(await state(tiny, second)).toEqual(expected);
    });

    it('hides older and equal-time puts that arrive after it, even on a partition that was empty', async () => {
      const { store, main, tiny } = ctx();
      for (const ns of [main, tiny]) {
        const id = freshId('clear-late');
        await clear(store, ns, id, 20n);
        await ns.put(id, b(1), b(1), 19n);
        await ns.put(id, b(2), patternBytes(TINY_INLINE_BYTES + 10, 3), 20n);
        await ns.put(id, b(3), b(3), 20n);
        await store.mutateMany([{ namespace: ns.namespace, id, writeTime: 15n, deletions: [], additions: [{ key: b(4), value: b(4) }] }]);
        expect(await state(ns, id), ns.namespace).toEqual([]);
        await ns.put(id, b(5), b(5), 21n);
        expect(await state(ns, id), ns.namespace).toEqual(['05=05@21']);
      }
    });

    it('with additions in the same mutation, leaves exactly the additions (deletions before additions)', async () => {
      const { store, main, tiny } = ctx();
      for (const ns of [main, tiny]) {
        const id = freshId('clear-add');
        const big = patternBytes(TINY_INLINE_BYTES + 20, 4);
        await ns.put(id, b(1), b(0x0f), 5n);
        await ns.put(id, b(2), patternBytes(TINY_INLINE_BYTES + 50, 5), 9n);
        await ns.put(id, b(3), b(3), 9n);
        await store.mutateMany([
          clearOf(ns, id, 10n, { deletions: [b(1), b(4)], additions: [{ key: b(1), value: b(0xaa) }, { key: b(4), value: big }] }),
        ]);
        expect(await state(ns, id), ns.namespace).toEqual(['01=aa@10', `04=${hex(big)}@10`]);
        // The clear went in below the additions (at 9): older writes arriving later stay hidden.
        await ns.put(id, b(6), b(6), 9n);
        expect(await state(ns, id), ns.namespace).toEqual(['01=aa@10', `04=${hex(big)}@10`]);
      }
    });

    it('a clear with additions at T is written at T-1: it keeps other keys\u2019 cells of exactly T, a clear alone hides them', async () => {
      const { store, main } = ctx();
      const [withAdds, alone] = [freshId('clear-tie'), freshId('clear-tie')];
      for (const id of [withAdds, alone]) await main.put(id, b(2), b(2), 10n);
      await store.mutateMany([clearOf(main, withAdds, 10n, { deletions: [b(3)], additions: [{ key: b(1), value: b(1) }] })]);
      await store.mutateMany([clearOf(main, alone, 10n, { deletions: [b(3)] })]);
      // The deletions keep T in both cases.
      for (const id of [withAdds, alone]) await main.put(id, b(3), b(3), 10n);
      expect(await state(main, withAdds)).toEqual(['01=01@10', '02=02@10']);
      expect(await state(main, alone)).toEqual([]);
    });

    it('beats a same-time addition of another mutation, in one call exactly as in separate calls', async () => {
      const { store, main } = ctx();
      const [sameCall, twoCalls] = [freshId('clear-group'), freshId('clear-group')];
      const add = (id: string): Mutation => ({ namespace: 'c_main', id, writeTime: 10n, deletions: [], additions: [{ key: b(1), value: b(1) }] });
      await store.mutateMany([add(sameCall), clearOf(main, sameCall, 10n), clearOf(main, freshId('clear-other'), 10n)]);
      await store.mutateMany([add(twoCalls)]);
      await store.mutateMany([clearOf(main, twoCalls, 10n)]);
      // Only a mutation's own additions survive its clear; another event's do not.
      expect(await state(main, sameCall)).toEqual([]);
      expect(await state(main, twoCalls)).toEqual([]);
    });

    it('repeating clears, with or without additions, in any order, converges to the same state', async () => {
      const { store, tiny } = ctx();
      const big = patternBytes(TINY_INLINE_BYTES + 25, 6);
      const mutations = (id: string): Mutation[] => [
        clearOf(tiny, id, 10n, { additions: [{ key: b(1), value: big }] }),
        clearOf(tiny, id, 8n),
        { namespace: 'c_tiny', id, writeTime: 12n, deletions: [], additions: [{ key: b(2), value: b(2) }] },
        clearOf(tiny, id, 11n, { additions: [{ key: b(3), value: b(3) }] }),
      ];
      const ids = [freshId('clear-idem'), freshId('clear-idem'), freshId('clear-idem')];
      const [once, repeated, oneByOne] = ids as [string, string, string];
      for (const id of ids) await tiny.put(id, b(4), b(4), 9n);
      await store.mutateMany(mutations(once));
      await store.mutateMany(mutations(repeated));
      await store.mutateMany([...mutations(repeated)].reverse());
      await store.mutateMany(mutations(repeated));
      for (const m of [...mutations(oneByOne), ...mutations(oneByOne)].reverse()) await store.mutateMany([m]);
      const expected = ['02=02@12', '03=03@11'];
      for (const id of ids) expect(await state(tiny, id), id).toEqual(expected);
      // A clear repeated after newer writes leaves them.
      await store.mutateMany(mutations(once));
      expect(await state(tiny, once)).toEqual(expected);
    });

    it('a large value cleared and then written again at a later time reads back whole', async () => {
      const { store, tiny } = ctx();
      const id = freshId('clear-rewrite');
      await tiny.put(id, b(1), patternBytes(TINY_INLINE_BYTES + 60, 7), 5n);
      await clear(store, tiny, id, 5n);
      const again = patternBytes(TINY_INLINE_BYTES + 61, 8);
      await tiny.put(id, b(1), again, 6n);
      expect(hex((await tiny.get(id, b(1)))?.value ?? b())).toBe(hex(again));
      await clear(store, tiny, id, 6n);
      await tiny.put(id, b(1), b(9), 7n);
      expect(await state(tiny, id)).toEqual(['01=09@7']);
    });

    it('a prefix clear hides only the keys with that prefix written at or before its time, later arrivals included', async () => {
      const { store, main, tiny } = ctx();
      for (const ns of [main, tiny]) {
        const id = freshId('clear-prefix');
        await ns.put(id, Uint8Array.of(0, 1, 0x61), b(1), 10n); // inside 00 01
        await ns.put(id, Uint8Array.of(0, 1), b(2), 10n); // the prefix itself
        await ns.put(id, Uint8Array.of(0, 2, 0x61), b(3), 10n); // another prefix
        await ns.put(id, Uint8Array.of(0, 0, 0xff), b(4), 10n); // just below it
        await ns.put(id, Uint8Array.of(0, 1, 0x62), b(5), 30n); // newer than the clear
        await store.mutateMany([{ ...clearOf(ns, id, 20n), clearPrefix: Uint8Array.of(0, 1) }]);
        await ns.put(id, Uint8Array.of(0, 1, 0x63), b(6), 20n); // older-or-equal, arriving later: hidden
        await ns.put(id, Uint8Array.of(0, 2, 0x63), b(7), 15n); // other prefix, arriving later: visible
        expect(await state(ns, id), ns.namespace).toEqual(['0000ff=04@10', '000162=05@30', '000261=03@10', '000263=07@15']);
      }
    });

    it('a prefix of 0xff bytes clears to the end of the partition', async () => {
      const { store, main } = ctx();
      const id = freshId('clear-prefix-ff');
      await main.put(id, Uint8Array.of(0xfe, 1), b(1), 10n);
      await main.put(id, Uint8Array.of(0xff), b(2), 10n);
      await main.put(id, Uint8Array.of(0xff, 0xff, 3), b(3), 10n);
      await store.mutateMany([{ ...clearOf(main, id, 10n), clearPrefix: Uint8Array.of(0xff) }]);
      expect(await state(main, id)).toEqual(['fe01=01@10']);
    });

    it('a clearPrefix without clear: true rejects the whole call before anything is written', async () => {
      const { store, main } = ctx();
      const id = freshId('clear-prefix-invalid');
      const bad: Mutation = { namespace: 'c_main', id, writeTime: 1n, clearPrefix: b(1), deletions: [], additions: [] };
      const good: Mutation = { namespace: 'c_main', id, writeTime: 1n, deletions: [], additions: [{ key: b(1), value: b(1) }] };
      await expectStoreError(() => store.mutateMany([good, bad]), 'invalid_argument');
      expect(await main.get(id, b(1))).toBeUndefined();
    });

    it('a clear that is not a boolean rejects the whole call before anything is written', async () => {
      const { store, main } = ctx();
      const id = freshId('clear-invalid');
      const bad = { ...clearOf(main, id, 1n), clear: 'yes' } as unknown as Mutation;
      const good: Mutation = { namespace: 'c_main', id, writeTime: 1n, deletions: [], additions: [{ key: b(1), value: b(1) }] };
      await expectStoreError(() => store.mutateMany([good, bad]), 'invalid_argument');
      expect(await main.get(id, b(1))).toBeUndefined();
    });

    it('random puts, deletes, clears and prefix clears in shuffled arrival orders converge to the last-write-wins model', async () => {
      const { store, tiny, options } = ctx();
      const maxInline = tiny.features.maxInlineValueBytes;
      await fc.assert(
        fc.asyncProperty(modelOpsArbitrary(Math.min(maxInline, TINY_INLINE_BYTES), { clears: true, prefixClears: true }), async (ops) => {
          const [sequential, concurrent] = [freshId('clear-model'), freshId('clear-model')];
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
