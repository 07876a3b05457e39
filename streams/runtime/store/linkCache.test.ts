import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../sinks/memory/index.ts';
import { cellKey, compareBytes, StoreError, type Mutation, type TwoLevelMapStore } from '../../../sinks/store/index.ts';
import { createLinkCachingStore, isLinkNamespace } from './createLinkCachingStore.ts';
import { createLinkCache } from './linkCache.ts';

const b = (...bytes: number[]) => Uint8Array.from(bytes);

describe('createLinkCache', () => {
  it('dominates a write with an older time, or the same time and smaller or equal bytes', () => {
    const cache = createLinkCache({ entries: 10 });
    cache.record(cellKey('f_out', 'a', b(1)), 10n, b(5));
    expect(cache.dominates(cellKey('f_out', 'a', b(1)), 9n, b(9))).toBe(true);
    expect(cache.dominates(cellKey('f_out', 'a', b(1)), 10n, b(5))).toBe(true);
    expect(cache.dominates(cellKey('f_out', 'a', b(1)), 10n, b(4))).toBe(true);
    expect(cache.dominates(cellKey('f_out', 'a', b(1)), 10n, b(6))).toBe(false);
    expect(cache.dominates(cellKey('f_out', 'a', b(1)), 10n, b(5, 0))).toBe(false); // longer is greater
    expect(cache.dominates(cellKey('f_out', 'a', b(1)), 11n, b(0))).toBe(false);
    expect(cache.dominates(cellKey('f_out', 'a', b(2)), 1n, b(0))).toBe(false); // another key
    expect(cache.stats()).toMatchObject({ lookups: 7, suppressed: 3 });
  });

  it('breaks a write-time tie by unsigned byte order, as the store does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 6 }), fc.uint8Array({ maxLength: 6 }), (cached, offered) => {
        const cache = createLinkCache({ entries: 1 });
        cache.record(cellKey('f_out', 'a', b(1)), 7n, cached);
        expect(cache.dominates(cellKey('f_out', 'a', b(1)), 7n, offered)).toBe(compareBytes(cached, offered) >= 0);
      }),
    );
  });

  it('keeps the greater of the cached and the recorded write', () => {
    const cache = createLinkCache({ entries: 10 });
    cache.record(cellKey('f_out', 'a', b(1)), 10n, b(5));
    cache.record(cellKey('f_out', 'a', b(1)), 9n, b(9)); // older: ignored
    expect(cache.dominates(cellKey('f_out', 'a', b(1)), 10n, b(5))).toBe(true);
    expect(cache.dominates(cellKey('f_out', 'a', b(1)), 9n, b(10))).toBe(true);
  });

  it('evicts the least recently used entry beyond its capacity', () => {
    const cache = createLinkCache({ entries: 2 });
    cache.record(cellKey('f_out', 'a', b(1)), 1n, b());
    cache.record(cellKey('f_out', 'a', b(2)), 1n, b());
    cache.dominates(cellKey('f_out', 'a', b(1)), 1n, b()); // touch key 1
    cache.record(cellKey('f_out', 'a', b(3)), 1n, b()); // evicts key 2
    expect(cache.stats().entries).toBe(2);
    expect(cache.dominates(cellKey('f_out', 'a', b(2)), 1n, b())).toBe(false);
    expect(cache.dominates(cellKey('f_out', 'a', b(1)), 1n, b())).toBe(true);
  });

  it('holds nothing with zero entries', () => {
    const cache = createLinkCache({ entries: 0 });
    cache.record(cellKey('f_out', 'a', b(1)), 1n, b());
    expect(cache.dominates(cellKey('f_out', 'a', b(1)), 1n, b())).toBe(false);
  });
});

const NAMESPACES = [{ name: 'f_out', chunking: false }, { name: 'f_in', chunking: false }, { name: 'f_props' }];

/** Everything a store holds, as comparable strings. */
async function dump(store: TwoLevelMapStore): Promise<string[]> {
  const rows: string[] = [];
  for (const ns of ['f_out', 'f_in', 'f_props']) {
    for (const id of ['a', 'b']) {
      const page = await store.namespace(ns).slice(id, { limit: 1000 });
      for (const c of page.cells) rows.push(`${ns}/${id}/${Buffer.from(c.key).toString('hex')}=${Buffer.from(c.value).toString('hex')}@${c.writeTime}`);
    }
  }
  return rows;
}

const mutationArb: fc.Arbitrary<Mutation> = fc
  .record({
    namespace: fc.constantFrom('f_out', 'f_in', 'f_props'),
    id: fc.constantFrom('a', 'b'),
    writeTime: fc.bigInt({ min: 1n, max: 6n }),
    clear: fc.oneof(fc.constant(false), fc.constant(false), fc.constant(false), fc.constant(true)),
    deletions: fc.array(fc.integer({ min: 0, max: 2 }).map((k) => b(k)), { maxLength: 1 }),
    additions: fc.array(fc.record({ key: fc.integer({ min: 0, max: 2 }).map((k) => b(k)), value: fc.uint8Array({ maxLength: 2 }) }), { maxLength: 2 }),
  })
  .map(({ clear, ...m }) => (clear ? { ...m, clear } : m));

/**
 * A store that fails some (namespace, id) groups of each call without applying
 * them, reporting them as a partial_failure like a real backend.
 */
function flakyStore(inner: TwoLevelMapStore, fails: () => boolean): TwoLevelMapStore {
  return {
    ...inner,
    namespace: (n) => inner.namespace(n),
    async mutateMany(mutations) {
      const failing = new Map<string, boolean>();
      const failed: number[] = [];
      const applied: Mutation[] = [];
      mutations.forEach((m, i) => {
        const group = `${m.namespace}/${m.id}`;
        if (!failing.has(group)) failing.set(group, fails());
        if (failing.get(group)) failed.push(i);
        else applied.push(m);
      });
      await inner.mutateMany(applied);
      if (failed.length > 0) {
        throw new StoreError('partial_failure', 'injected', { failures: [{ mutationIndexes: failed, error: new StoreError('timeout', 'injected') }] });
      }
    },
  };
}

describe('createLinkCachingStore', () => {
  it('caches only link namespaces', () => {
    expect(['follows_out', 'follows_in', 'follows_out_recent', 'follows_props', 'degrees'].map(isLinkNamespace)).toEqual([true, true, false, false, false]);
  });

  it('drops a replayed link write and still writes the props and deletions of the same batch', async () => {
    const inner = createMemoryStore({ namespaces: NAMESPACES });
    const calls: Mutation[][] = [];
    const spy: TwoLevelMapStore = { ...inner, namespace: (n) => inner.namespace(n), mutateMany: async (ms) => (calls.push([...ms]), inner.mutateMany(ms)) };
    const cache = createLinkCache({ entries: 100 });
    const store = createLinkCachingStore(spy, cache);
    const batch: Mutation[] = [
      { namespace: 'f_out', id: 'a', writeTime: 5n, deletions: [], additions: [{ key: b(1), value: b(1) }] },
      { namespace: 'f_props', id: 'a', writeTime: 5n, deletions: [], additions: [{ key: b(1), value: b(1) }] },
    ];
    await store.mutateMany(batch);
    await store.mutateMany([...batch, { namespace: 'f_in', id: 'b', writeTime: 5n, deletions: [b(9)], additions: [{ key: b(0), value: b(1) }] }]);
    await store.mutateMany([{ namespace: 'f_in', id: 'b', writeTime: 4n, deletions: [], additions: [{ key: b(0), value: b(9) }] }]);
    expect(calls.map((c) => c.map((m) => m.namespace))).toEqual([['f_out', 'f_props'], ['f_props', 'f_in']]);
    expect(cache.stats()).toMatchObject({ suppressed: 2 });
  });

  it('maps partial-failure indexes back to the caller’s mutations and caches nothing that failed', async () => {
    const inner = createMemoryStore({ namespaces: NAMESPACES });
    const cache = createLinkCache({ entries: 100 });
    let failNext = true;
    const store = createLinkCachingStore(flakyStore(inner, () => failNext), cache);
    const m = (id: string): Mutation => ({ namespace: 'f_out', id, writeTime: 1n, deletions: [], additions: [{ key: b(1), value: b(1) }] });
    await store.mutateMany([m('a')]).catch(() => {});
    failNext = false;
    await store.mutateMany([m('b')]);
    failNext = true;
    // m('b') is suppressed (index 0), so the inner store only sees m('a') — at its index 0 — and fails it.
    const error = await store.mutateMany([m('b'), m('a')]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'partial_failure', failures: [{ mutationIndexes: [1] }] });
    expect(cache.dominates(cellKey('f_out', 'a', b(1)), 1n, b(1))).toBe(false);
  });

  it('never suppresses a write that would change state: same state as the uncached store (LWW model with clears, injected failures)', async () => {
    let suppressedTotal = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(mutationArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 4 }),
        fc.infiniteStream(fc.boolean()),
        async (batches, entries, failures) => {
          const cache = createLinkCache({ entries });
          const cached = createLinkCachingStore(flakyStore(createMemoryStore({ namespaces: NAMESPACES }), () => failures.next().value as boolean), cache);
          const reference = createMemoryStore({ namespaces: NAMESPACES });
          for (const batch of batches) {
            let failed = new Set<number>();
            try {
              await cached.mutateMany(batch);
            } catch (e) {
              failed = new Set((e as StoreError).failures.flatMap((f) => f.mutationIndexes));
            }
            // What the caller was told landed (suppressed writes included) is what the store holds.
            await reference.mutateMany(batch.filter((_, i) => !failed.has(i)));
            expect(await dump(cached)).toEqual(await dump(reference));
          }
          suppressedTotal += cache.stats().suppressed;
        },
      ),
      { numRuns: 300 },
    );
    // The property is not vacuous. Random runs suppress 65–101 writes (40 runs), and
    // one CI run 48: the bound sits far below that spread so it never flakes.
    expect(suppressedTotal).toBeGreaterThan(15);
  }, 30_000);
});

describe('createLinkCachingStore with partition clears', () => {
  it('sends a dominated addition when the same call clears its partition at the same time (the clear must stay at T-1)', async () => {
    const inner = createMemoryStore({ namespaces: NAMESPACES });
    const sent: Mutation[][] = [];
    const spy: TwoLevelMapStore = { ...inner, namespace: (n) => inner.namespace(n), mutateMany: async (ms) => void sent.push([...ms]) };
    const cache = createLinkCache({ entries: 10 });
    cache.record(cellKey('f_out', 'a', b(1)), 5n, b(1));
    const add: Mutation = { namespace: 'f_out', id: 'a', writeTime: 5n, deletions: [], additions: [{ key: b(1), value: b(1) }] };
    const clear = { namespace: 'f_out', id: 'a', writeTime: 5n, deletions: [], additions: [], clear: true } as Mutation;
    await createLinkCachingStore(spy, cache).mutateMany([clear, add]);
    expect(sent[0]).toEqual([clear, add]); // the clear-only mutation is not dropped either
  });
});
