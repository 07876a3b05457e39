import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSplitAwarePartitionReader } from '../../reads/split/createSplitAwarePartitionReader.ts';
import { createStorePartitionReader } from '../../reads/createStorePartitionReader.ts';
import { createMemoryStore } from '../memory/index.ts';
import { bucketOfKey, splitBucketId, type WideRowRecord } from '../namespaces/index.ts';
import { isStoreError, type Mutation, type StoreError, type TwoLevelMapStore } from '../store/index.ts';
import { createSplitDirectory } from './createSplitDirectory.ts';
import { createSplitLayoutReader } from './createSplitLayoutReader.ts';
import { createSplitMirroringStore } from './createSplitMirroringStore.ts';
import { createWideRowRepository, type WideRowRepository } from './wideRowRepository.ts';

// Issue 11 item 5: a writer (or reader) whose directory reloads keep failing must not act on
// a directory older than its bound. The directory source fails on demand and the clock is ours.

const REFRESH_MS = 1_000;
const MAX_STALE_MS = 3 * REFRESH_MS;
const NS = ['links', 'links_split', 'props', 'wide_rows', 'wide_row_checkpoints', 'wide_rows_log'].map((name) => ({ name, chunking: false }));
const LAYOUT = { strategy: 'hash', buckets: 4 } as const;
const record = (status: WideRowRecord['status'], updatedAt = 1): WideRowRecord => ({
  namespace: 'links', partitionId: 'celeb', status, generation: 1, attempts: 1, splitNamespace: 'links_split', strategy: 'hash',
  buckets: LAYOUT.buckets, boundaries: [], rows: 0, bytes: 0, checksum: '', updatedAt,
});
const put = (namespace: string, id: string, key: number, writeTime = 10n, value = 1): Mutation => ({
  namespace, id, writeTime, deletions: [], additions: [{ key: Uint8Array.of(key), value: Uint8Array.of(value) }],
});

function setup() {
  const store = createMemoryStore({ namespaces: NS });
  const clock = { now: 1_000_000 };
  const repository = createWideRowRepository(store, { nowMs: () => clock.now });
  const source = { failing: false };
  /** The directory's source: the real repository whose loads (full listings and change-log reads) fail on demand; point reads still work. */
  const flaky: WideRowRepository = {
    ...repository,
    entries(ns) {
      if (source.failing) throw new Error('wide_rows list timed out');
      return repository.entries(ns);
    },
    changes(ns, fromMs, untilMs) {
      if (source.failing) throw new Error('wide_rows_log read timed out');
      return repository.changes(ns, fromMs, untilMs);
    },
  };
  const directory = createSplitDirectory({
    repository: flaky, namespaces: ['links'], refreshMs: REFRESH_MS, maxStaleMs: MAX_STALE_MS, falsePositiveRate: 0.01, nowMs: () => clock.now,
  });
  const writer = createSplitMirroringStore(store, { directory, namespaces: new Set(['links']) });
  const mirrored = async (key: number) =>
    (await store.namespace('links_split').get(splitBucketId('celeb', 1, bucketOfKey(LAYOUT, Uint8Array.of(key))), Uint8Array.of(key))) !== undefined;
  const reload = () => directory.refresh().catch(() => undefined);
  return { store, repository, clock, source, directory, writer, mirrored, reload };
}

describe('split directory freshness (writers fail closed, readers fall back)', () => {
  it('a writer whose reloads keep failing refuses writes of splittable namespaces past the bound (retriable, only those mutations), then mirrors once a reload works', async () => {
    const s = setup();
    await s.directory.refresh(); // loaded while nothing was split
    await s.repository.put(record('PLANNED')); // the planner records a plan; the writer cannot see it:
    s.source.failing = true;
    s.clock.now += MAX_STALE_MS;
    await s.reload();
    await s.writer.mutateMany([put('links', 'celeb', 1)]); // within the bound: the barrier covers it
    expect(s.directory.isFresh()).toBe(true);

    s.clock.now += 1;
    await s.reload();
    expect(s.directory.isFresh()).toBe(false);
    const err = await s.writer.mutateMany([put('props', 'celeb', 7), put('links', 'celeb', 2), put('links', 'other', 3)]).catch((e: unknown) => e);
    expect(isStoreError(err) && err.retriable).toBe(true);
    expect((err as StoreError).code).toBe('partial_failure');
    expect((err as StoreError).failures.flatMap((f) => f.mutationIndexes).sort()).toEqual([1, 2]);
    expect((err as StoreError).message).toMatch(/split directory.*older than 3000 ms/);
    expect(await s.store.namespace('props').get('celeb', Uint8Array.of(7))).toBeDefined(); // other namespaces still land
    expect(await s.store.namespace('links').get('celeb', Uint8Array.of(2))).toBeUndefined(); // not the original alone

    s.source.failing = false;
    await s.reload();
    await s.writer.mutateMany([put('links', 'celeb', 2)]);
    expect(await s.mirrored(2)).toBe(true);
  });

  it('no write of a partition lands in the original alone once its plan is older than the bound, whatever the reloads do (property)', async () => {
    type Step = { kind: 'advance'; ms: number } | { kind: 'reload'; ok: boolean } | { kind: 'write' } | { kind: 'plan' };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 2 * REFRESH_MS }) }),
      fc.record({ kind: fc.constant('reload' as const), ok: fc.boolean() }),
      fc.constant({ kind: 'write' as const }),
      fc.constant({ kind: 'plan' as const }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps) => {
        const s = setup();
        await s.directory.refresh();
        let plannedAt: number | undefined;
        let key = 0;
        for (const st of steps) {
          if (st.kind === 'advance') s.clock.now += st.ms;
          if (st.kind === 'reload') {
            s.source.failing = !st.ok;
            await s.reload();
          }
          if (st.kind === 'plan' && plannedAt === undefined) {
            await s.repository.put(record('PLANNED'));
            plannedAt = s.clock.now;
          }
          if (st.kind === 'write') {
            const k = key++;
            const landed = await s.writer.mutateMany([put('links', 'celeb', k)]).then(() => true, () => false);
            if (landed && plannedAt !== undefined && s.clock.now - plannedAt > MAX_STALE_MS) expect(await s.mirrored(k)).toBe(true);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a reader whose directory is older than the bound reads the original, and the split again once a reload works', async () => {
    const s = setup();
    await s.repository.put(record('COMPLETED'));
    // The original and the split hold different values, so a read shows where it went.
    await s.store.mutateMany([put('links', 'celeb', 5, 10n, 0), { ...put('links_split', splitBucketId('celeb', 1, bucketOfKey(LAYOUT, Uint8Array.of(5))), 5) }]);
    await s.directory.refresh();
    const reader = createSplitAwarePartitionReader({
      original: createStorePartitionReader(s.store as TwoLevelMapStore),
      directory: s.directory,
      layoutReader: createSplitLayoutReader(s.store),
      namespaces: new Set(['links']),
      multiKeyReadMaxBuckets: 16,
    });
    const from = async () => ((await reader.get('links', 'celeb', Uint8Array.of(5)))?.value[0] === 1 ? 'split' : 'original');
    expect(await from()).toBe('split');
    s.source.failing = true;
    s.clock.now += MAX_STALE_MS + 1;
    await s.reload();
    expect(await from()).toBe('original');
    expect((await reader.page('links', 'celeb', { limit: 10 })).cells.map((c) => c.value[0])).toEqual([0]);
    s.source.failing = false;
    await s.reload();
    expect(await from()).toBe('split');
  });
});
