import { describe, expect, it } from 'vitest';
import type { Mutation } from '../../sinks/store/TwoLevelMapStore.ts';
import { b, everything, expectStoreError, freshId, hex, keysOf, patternBytes } from './contractHelpers.ts';
import type { ContractContext } from './twoLevelMapStoreContract.ts';

const mutation = (m: Partial<Mutation> & Pick<Mutation, 'namespace' | 'id' | 'writeTime'>): Mutation => ({
  deletions: [],
  additions: [],
  ...m,
});

/** mutateMany: deletions before additions, consolidated per partition, many partitions at once. */
export function describeMutateMany(ctx: () => ContractContext): void {
  describe('mutateMany', () => {
    it('a key deleted and added at the same write time ends up with the addition', async () => {
      const { store, main } = ctx();
      const id = freshId('mm-same-time');
      await main.put(id, b(1), b(0x0f), 5n);
      await main.put(id, b(2), b(0x0f), 5n);
      await store.mutateMany([
        mutation({ namespace: 'c_main', id, writeTime: 10n, deletions: [b(1), b(2)], additions: [{ key: b(1), value: b(0xaa) }] }),
      ]);
      expect(await everything(main, id).then((cells) => cells.map((c) => `${hex(c.key)}=${hex(c.value)}@${c.writeTime}`))).toEqual([
        '01=aa@10',
      ]);
    });

    it('across write times the timestamps decide, whatever the order of the mutations', async () => {
      const { store, main } = ctx();
      const id = freshId('mm-times');
      await store.mutateMany([
        mutation({ namespace: 'c_main', id, writeTime: 20n, deletions: [b(1)], additions: [{ key: b(2), value: b(2) }] }),
        mutation({ namespace: 'c_main', id, writeTime: 10n, additions: [{ key: b(1), value: b(1) }], deletions: [b(2)] }),
      ]);
      expect(keysOf(await everything(main, id))).toEqual(['02']);
    });

    it('many keys deleted at one write time (several statements\u2019 worth) go exactly: a newer cell stays, an older put arriving later stays hidden', async () => {
      const { store, main } = ctx();
      const id = freshId('mm-deletes');
      const keys = Array.from({ length: 300 }, (_, k) => b(k >> 8, k & 0xff));
      await store.mutateMany([mutation({ namespace: 'c_main', id, writeTime: 5n, additions: keys.map((key) => ({ key, value: b(5) })) })]);
      await main.put(id, keys[7] as Uint8Array, b(0xee), 20n);
      await store.mutateMany([
        mutation({ namespace: 'c_main', id, writeTime: 10n, deletions: keys.slice(0, 290) }),
        ...keys.slice(290, 295).map((key, i) => mutation({ namespace: 'c_main', id, writeTime: 11n + BigInt(i % 2), deletions: [key] })),
      ]);
      await main.put(id, keys[3] as Uint8Array, b(1), 9n);
      // Deleted at 12 (a tie the deletion wins) and at 11.
      await main.put(id, keys[291] as Uint8Array, b(1), 12n);
      await main.put(id, keys[292] as Uint8Array, b(1), 12n);
      const cells = (await everything(main, id)).map((c) => `${hex(c.key)}=${hex(c.value)}@${c.writeTime}`);
      expect(cells).toEqual(['0007=ee@20', '0124=01@12', ...keys.slice(295).map((k) => `${hex(k)}=05@5`)]);
    });

    it('equal-time additions of one key keep the greater value, as separate puts would', async () => {
      const { store, main } = ctx();
      const id = freshId('mm-tie');
      await store.mutateMany([
        mutation({ namespace: 'c_main', id, writeTime: 3n, additions: [{ key: b(1), value: b(0x80) }] }),
        mutation({ namespace: 'c_main', id, writeTime: 3n, additions: [{ key: b(1), value: b(0x7f, 0xff) }] }),
      ]);
      expect(hex((await main.get(id, b(1)))?.value ?? b())).toBe('80');
    });

    it('applies writes to many namespaces and partitions, chunked values and clears included, idempotently', async () => {
      const { store, main, tiny, plain } = ctx();
      const ids = Array.from({ length: 40 }, () => freshId('mm-many'));
      const big = patternBytes(300, 5);
      const mutations = ids.flatMap((id, i): Mutation[] => [
        mutation({ namespace: 'c_main', id, writeTime: 7n, additions: [0, 1, 2].map((k) => ({ key: b(k), value: b(i, k) })) }),
        mutation({ namespace: 'c_tiny', id, writeTime: 7n, additions: [{ key: b(9), value: big }] }),
        mutation({ namespace: 'c_plain', id, writeTime: 8n, deletions: [b(4)], additions: [{ key: b(5), value: b(i) }] }),
        // A clear of one namespace's partition leaves the other namespaces' rows of the same id alone.
        mutation({ namespace: 'c_plain', id, writeTime: 7n, clear: true }),
      ]);
      await store.mutateMany(mutations);
      await store.mutateMany(mutations);
      for (const [i, id] of ids.entries()) {
        expect((await everything(main, id)).map((c) => hex(c.value))).toEqual([0, 1, 2].map((k) => hex(b(i, k))));
        expect(hex((await tiny.get(id, b(9)))?.value ?? b())).toBe(hex(big));
        expect(keysOf(await everything(plain, id))).toEqual(['05']);
      }
    });

    it('an unknown namespace or an invalid mutation rejects the whole call before anything is written', async () => {
      const { store, main } = ctx();
      const id = freshId('mm-invalid');
      const good = mutation({ namespace: 'c_main', id, writeTime: 1n, additions: [{ key: b(1), value: b(1) }] });
      await expectStoreError(() => store.mutateMany([good, mutation({ namespace: 'nope', id, writeTime: 1n })]), 'unknown_namespace');
      await expectStoreError(() => store.mutateMany([good, mutation({ namespace: 'c_main', id: '', writeTime: 1n })]), 'invalid_argument');
      await expectStoreError(
        () => store.mutateMany([good, mutation({ namespace: 'c_plain', id, writeTime: 1n, additions: [{ key: b(1), value: new Uint8Array(ctx().plain.features.maxValueBytes + 1) }] })]),
        'too_large',
      );
      expect(await main.get(id, b(1))).toBeUndefined();
      await store.mutateMany([]);
    });
  });
}
