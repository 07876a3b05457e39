import { describe, expect, it } from 'vitest';
import { b, expectStoreError, freshId } from './contractHelpers.ts';
import type { ContractContext } from './twoLevelMapStoreContract.ts';

const BAD_NAMES = ['Links', '1links', 'links-out', 'links out', 'a'.repeat(49), 'links__chunks', 'x; DROP KEYSPACE y', '', '_x'];

/** Config validation, unknown namespaces, argument checks and declared features. */
export function describeConfiguration(ctx: () => ContractContext): void {
  describe('configuration and arguments', () => {
    it.each(BAD_NAMES)('namespace name %j is rejected with a message naming the field', async (name) => {
      const err = await expectStoreError(() => ctx().openStore({ namespaces: [{ name: 'ok_one' }, { name }] }), 'invalid_config');
      expect(err.retriable).toBe(false);
      expect(err.message).toMatch(/namespaces\.1\.name/);
    });

    it('duplicate names and chunked names too long for their chunk table are rejected', async () => {
      const dup = await expectStoreError(() => ctx().openStore({ namespaces: [{ name: 'twice' }, { name: 'twice' }] }), 'invalid_config');
      expect(dup.message).toMatch(/namespaces\.1\.name: duplicate namespace 'twice'/);
      const long = 'n'.repeat(41);
      const tooLong = await expectStoreError(() => ctx().openStore({ namespaces: [{ name: long }] }), 'invalid_config');
      expect(tooLong.message).toMatch(/namespaces\.0\.name: a chunked namespace name may be at most 40/);
    });

    it('an unconfigured namespace is rejected', async () => {
      const { store } = ctx();
      expect(store.namespaces).toEqual(['c_main', 'c_tiny', 'c_plain']);
      await expectStoreError(() => store.namespace('c_nope'), 'unknown_namespace');
    });

    it('invalid arguments are rejected as non-retriable before anything is written', async () => {
      const { main } = ctx();
      const id = freshId('args');
      const cases: [() => Promise<unknown>, 'invalid_argument' | 'too_large'][] = [
        [() => main.put('', b(1), b(1), 1n), 'invalid_argument'],
        [() => main.put(id, b(1), b(1), -1n), 'invalid_argument'],
        [() => main.put(id, b(1), b(1), 1 as unknown as bigint), 'invalid_argument'],
        [() => main.put(id, new Uint8Array(65_536), b(1), 1n), 'too_large'],
        [() => main.delete(id, b(1), 2n ** 63n), 'invalid_argument'],
        [() => main.slice(id, { limit: 0 }), 'invalid_argument'],
        [() => main.slice(id, { limit: 1.5 }), 'invalid_argument'],
        [() => main.deleteNewest(id, -1, 1n), 'invalid_argument'],
        [() => main.keepNewest(id, 0.5, 1n), 'invalid_argument'],
        [() => main.get('', b(1)), 'invalid_argument'],
      ];
      for (const [call, code] of cases) expect((await expectStoreError(call, code)).retriable).toBe(false);
      expect(await main.get(id, b(1))).toBeUndefined();
    });

    it('after close, every call rejects closed; namespace() and values() still return, so no promise beside them is orphaned', async () => {
      const other = await ctx().openStore({ namespaces: [{ name: 'c_main' }] });
      const before = other.namespace('c_main');
      await other.close();
      await other.close();
      await expectStoreError(() => before.get('x', b(1)), 'closed');
      await expectStoreError(() => other.namespace('c_main').slice('x', { limit: 1 }), 'closed');
      await expectStoreError(() => other.values('c_main').get('x', b(1)), 'closed');
      await expectStoreError(() => other.mutateMany([{ namespace: 'c_main', id: 'x', writeTime: 1n, deletions: [], additions: [{ key: b(1), value: b(1) }] }]), 'closed');
    });

    it('declares ordered keys and write timestamps, and per-namespace chunking', () => {
      const { store, main, plain } = ctx();
      expect(store.features).toMatchObject({ orderedKeys: true, writeTimestamps: true, rangeDeletes: true });
      expect(main.features.maxValueBytes).toBeGreaterThanOrEqual(2 * 1024 * 1024);
      expect(plain.features.chunking).toBe(false);
      expect(main.features.chunking).toBe(store.features.chunking);
    });
  });
}
