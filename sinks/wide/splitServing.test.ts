import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../memory/index.ts';
import { bucketOfKey, splitBucketId, type WideRowRecord } from '../namespaces/index.ts';
import { StoreError, type Mutation, type TwoLevelMapStore } from '../store/index.ts';
import { createSplitDirectory } from './createSplitDirectory.ts';
import { createSplitLayoutReader } from './createSplitLayoutReader.ts';
import { createSplitMirroringStore } from './createSplitMirroringStore.ts';
import { createWideRowRepository } from './wideRowRepository.ts';
import { mirrorMutation } from './mirrorMutation.ts';

const NS = [{ name: 'links', chunking: false }, { name: 'links_split', chunking: false }, { name: 'wide_rows', chunking: false }, { name: 'wide_row_checkpoints', chunking: false }, { name: 'wide_rows_log', chunking: false }];
const record = (status: WideRowRecord['status']): WideRowRecord => ({
  namespace: 'links', partitionId: 'celeb', status, generation: 3, attempts: 3, splitNamespace: 'links_split', strategy: 'hash',
  buckets: 4, boundaries: [], rows: 0, bytes: 0, checksum: '', updatedAt: 1,
});
const put = (id: string, key: number, writeTime = 10n): Mutation => ({ namespace: 'links', id, writeTime, deletions: [], additions: [{ key: Uint8Array.of(key), value: Uint8Array.of(1) }] });

async function setup(status: WideRowRecord['status']) {
  const store = createMemoryStore({ namespaces: NS });
  const repository = createWideRowRepository(store);
  await repository.put(record(status));
  const directory = createSplitDirectory({ repository, namespaces: ['links'], refreshMs: 60_000, maxStaleMs: 180_000, falsePositiveRate: 0.01 });
  await directory.refresh();
  return { store, directory };
}

const bucketCells = async (store: TwoLevelMapStore) => {
  let n = 0;
  for (let b = 0; b < 4; b++) n += (await store.namespace('links_split').slice(splitBucketId('celeb', 3, b), { limit: 100 })).cells.length;
  return n;
};

describe('split mirroring store', () => {
  it('mirrors writes of a partition being split into its current generation, and nothing else', async () => {
    const { store, directory } = await setup('SPLITTING');
    const mirrored = createSplitMirroringStore(store, { directory, namespaces: new Set(['links']) });
    await mirrored.mutateMany([put('celeb', 1), put('celeb', 2), put('other', 3)]);
    expect(await bucketCells(store)).toBe(2);
    expect(directory.mightHaveRecord('links', 'other')).toBe(false);
  });

  it('counts Bloom checks, their positives and the records of the last reload by status', async () => {
    const { directory } = await setup('SPLITTING');
    directory.mightHaveRecord('links', 'celeb');
    directory.mightHaveRecord('links', 'nobody');
    expect(directory.stats).toMatchObject({ records: 1, checks: 2, hits: 1, byStatus: { SPLITTING: 1 } });
  });

  it('does not mirror a FAILED split', async () => {
    const { store, directory } = await setup('FAILED');
    await createSplitMirroringStore(store, { directory, namespaces: new Set(['links']) }).mutateMany([put('celeb', 1)]);
    expect(await bucketCells(store)).toBe(0);
  });

  it('reports a failed mirror write as a failure of the mutation it copies', async () => {
    const { store, directory } = await setup('COMPLETED');
    const failing: TwoLevelMapStore = {
      ...store,
      namespaces: store.namespaces,
      features: store.features,
      namespace: (n) => store.namespace(n),
      async mutateMany(ms) {
        const bad = ms.flatMap((m, i) => (m.namespace === 'links_split' ? [i] : []));
        throw new StoreError('partial_failure', 'mirror down', { failures: [{ mutationIndexes: bad, error: new StoreError('unavailable', 'down') }] });
      },
    };
    const err = await createSplitMirroringStore(failing, { directory, namespaces: new Set(['links']) }).mutateMany([put('other', 1), put('celeb', 2)]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).failures.map((f) => f.mutationIndexes)).toEqual([[1]]);
  });
});

describe('mirrorMutation', () => {
  it('mirrors a prefix clear as the same prefix clear to every bucket (never widened to a partition clear)', () => {
    const target = { splitNamespace: 'links_split', partitionId: 'celeb', generation: 3, layout: { strategy: 'hash' as const, buckets: 2 } };
    const clear: Mutation = { namespace: 'links', id: 'celeb', writeTime: 7n, clear: true, clearPrefix: Uint8Array.of(0, 1), deletions: [], additions: [] };
    expect(mirrorMutation(target, clear)).toEqual([0, 1].map((b) => ({ ...clear, namespace: 'links_split', id: splitBucketId('celeb', 3, b) })));
  });
});

describe('split layout reader', () => {
  it('pages a hash split with bounded fan-out: every key once, in order, ~1.5 × limit cells read per page instead of n × limit', async () => {
    const store = createMemoryStore({ namespaces: NS });
    const layout = { strategy: 'hash', buckets: 4 } as const;
    const target = { splitNamespace: 'links_split', partitionId: 'celeb', generation: 3, layout };
    const keys = Array.from({ length: 1_000 }, (_, i) => Uint8Array.of(i >> 8, i & 0xff));
    for (const key of keys) await store.namespace('links_split').put(splitBucketId('celeb', 3, bucketOfKey(layout, key)), key, Uint8Array.of(1), 1n);
    let cellsRead = 0;
    const counted: TwoLevelMapStore = {
      ...store,
      namespace: (n) => {
        const ns = store.namespace(n);
        const slice: typeof ns.slice = async (id, q) => {
          const page = await ns.slice(id, q);
          cellsRead += page.cells.length;
          return page;
        };
        return { ...ns, slice };
      },
    };
    const reader = createSplitLayoutReader(counted);
    const seen: Uint8Array[] = [];
    let after: Uint8Array | undefined;
    let pages = 0;
    for (;;) {
      const page = await reader.page(target, { limit: 100, ...(after === undefined ? {} : { after }) });
      pages++;
      seen.push(...page.cells.map((c) => c.key));
      after = page.cells.at(-1)?.key ?? after;
      if (page.exhausted) break;
      expect(page.cells.length).toBeGreaterThan(0);
    }
    expect(seen.map((k) => Buffer.from(k).toString('hex'))).toEqual(keys.map((k) => Buffer.from(k).toString('hex')));
    expect(cellsRead / pages).toBeLessThanOrEqual(1.5 * 100 + 4 * 8);
    expect(pages).toBeLessThanOrEqual(15);
  });
});
