import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../sinks/memory/index.ts';
import { bucketOfKey, splitBucketId, type WideRowRecord } from '../../sinks/namespaces/index.ts';
import { createSplitDirectory, createSplitLayoutReader, createWideRowRepository, type SplitLayoutReader } from '../../sinks/wide/index.ts';
import { createStorePartitionReader } from '../createStorePartitionReader.ts';
import type { PartitionReader } from '../PartitionReader.ts';
import { createSplitAwarePartitionReader } from './createSplitAwarePartitionReader.ts';

const NS = ['links', 'links_split', 'other', 'wide_rows', 'wide_row_checkpoints', 'wide_rows_log'].map((name) => ({ name, chunking: false }));

async function setup(status: WideRowRecord['status'], layout: (plain: SplitLayoutReader) => SplitLayoutReader = (plain) => plain, original: (plain: PartitionReader) => PartitionReader = (plain) => plain, multiKeyReadMaxBuckets = 3) {
  const store = createMemoryStore({ namespaces: NS });
  const record: WideRowRecord = { namespace: 'links', partitionId: 'c', status, generation: 1, attempts: 1, splitNamespace: 'links_split', strategy: 'hash', buckets: 3, boundaries: [], rows: 0, bytes: 0, checksum: '', updatedAt: 1 };
  await createWideRowRepository(store).put(record);
  // The original and the split hold different values, so a read shows where it went.
  for (let k = 0; k < 20; k++) {
    const key = Uint8Array.of(k);
    await store.namespace('links').put('c', key, Uint8Array.of(0), 5n);
    await store.namespace('links_split').put(splitBucketId('c', 1, bucketOfKey({ strategy: 'hash', buckets: 3 }, key)), key, Uint8Array.of(1), 5n);
    if (k < 3) for (const small of ['d', 'e']) await store.namespace('links').put(small, key, Uint8Array.of(0), 5n);
  }
  const directory = createSplitDirectory({ repository: createWideRowRepository(store), namespaces: ['links'], refreshMs: 60_000, maxStaleMs: 180_000, falsePositiveRate: 0.01 });
  await directory.refresh();
  const fallbacks: unknown[] = [];
  const reader = createSplitAwarePartitionReader({
    original: original(createStorePartitionReader(store)),
    directory,
    layoutReader: layout(createSplitLayoutReader(store)),
    namespaces: new Set(['links']),
    multiKeyReadMaxBuckets,
    onFallback: (f) => fallbacks.push(f.error),
  });
  return { reader, fallbacks };
}

const source = (value: Uint8Array | undefined) => (value?.[0] === 1 ? 'split' : 'original');

describe('split-aware PartitionReader', () => {
  it('reads a COMPLETED split through its buckets (point and merged ascending pages)', async () => {
    const { reader } = await setup('COMPLETED');
    expect(source((await reader.get('links', 'c', Uint8Array.of(7)))?.value)).toBe('split');
    const first = await reader.page('links', 'c', { limit: 8 });
    const rest = await reader.page('links', 'c', { limit: 50, after: first.cells.at(-1)!.key });
    expect([...first.cells, ...rest.cells].map((c) => c.key[0])).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(first.exhausted).toBe(false);
    expect(rest.exhausted).toBe(true);
    expect(new Set(first.cells.map((c) => source(c.value)))).toEqual(new Set(['split']));
  });

  it('bounds a page of a COMPLETED split by `before` as the original does (exclusive, then exhausted)', async () => {
    const { reader } = await setup('COMPLETED');
    const page = await reader.page('links', 'c', { limit: 50, after: Uint8Array.of(3), before: Uint8Array.of(9) });
    expect(page.cells.map((c) => [c.key[0], source(c.value)])).toEqual([4, 5, 6, 7, 8].map((k) => [k, 'split']));
    expect(page.exhausted).toBe(true);
    const short = await reader.page('links', 'c', { limit: 2, after: Uint8Array.of(3), before: Uint8Array.of(9) });
    expect([short.cells.map((c) => c.key[0]), short.exhausted]).toEqual([[4, 5], false]);
  });

  it('reads many keys of a COMPLETED hash split with one getKeys per bucket, answers in the asked order', async () => {
    const { reader } = await setup('COMPLETED');
    const keys = [19, 3, 42, 3, 0, 11].map((k) => Uint8Array.of(k));
    expect((await reader.getKeys('links', 'c', keys)).map((c) => c && `${c.key[0]}:${source(c.value)}`)).toEqual(['19:split', '3:split', undefined, '3:split', '0:split', '11:split']);
  });

  it('reads many keys that fall in more buckets than multiKeyReadMaxBuckets from the original in one request, fewer through their buckets', async () => {
    const layout = { strategy: 'hash', buckets: 3 } as const;
    const keyIn = (bucket: number) => Array.from({ length: 20 }, (_, k) => k).find((k) => bucketOfKey(layout, Uint8Array.of(k)) === bucket)!;
    let originalGetKeys = 0;
    const counting = (plain: PartitionReader): PartitionReader => ({ ...plain, getKeys: (...a) => (originalGetKeys++, plain.getKeys(...a)) });
    const { reader } = await setup('COMPLETED', undefined, counting, 2);
    const spread = [0, 1, 2].map((b) => Uint8Array.of(keyIn(b)));
    expect((await reader.getKeys('links', 'c', spread)).map((c) => source(c?.value))).toEqual(['original', 'original', 'original']);
    expect(originalGetKeys).toBe(1);
    expect((await reader.getKeys('links', 'c', spread.slice(0, 2))).map((c) => source(c?.value))).toEqual(['split', 'split']);
    expect(originalGetKeys).toBe(1);
  });

  it.each(['PLANNED', 'SPLIT', 'FAILED'] as const)('reads the original while the split is %s', async (status) => {
    const { reader } = await setup(status);
    expect(source((await reader.get('links', 'c', Uint8Array.of(7)))?.value)).toBe('original');
  });

  it('falls back to the original when the split read fails', async () => {
    const down = () => Promise.reject(new Error('bucket down'));
    const broken: SplitLayoutReader = { get: down, getKeys: down, page: down, pageBucket: down };
    const { reader, fallbacks } = await setup('COMPLETED', () => broken);
    expect(source((await reader.get('links', 'c', Uint8Array.of(7)))?.value)).toBe('original');
    expect((await reader.getKeys('links', 'c', [Uint8Array.of(7), Uint8Array.of(8)])).map((c) => source(c?.value))).toEqual(['original', 'original']);
    expect((await reader.page('links', 'c', { limit: 100 })).cells).toHaveLength(20);
    expect(fallbacks).toHaveLength(3);
  });

  it('scans a COMPLETED hash split bucket by bucket: a small scan reads one bucket, a full one every cell once', async () => {
    const bucketsRead: number[] = [];
    const counting = (plain: SplitLayoutReader): SplitLayoutReader => ({
      ...plain,
      pageBucket: (t, bucket, q) => {
        bucketsRead.push(bucket);
        return plain.pageBucket(t, bucket, q);
      },
    });
    const { reader } = await setup('COMPLETED', counting);
    const first = await reader.scan('links', 'c', { limit: 3 });
    expect(first.cells).toHaveLength(3);
    expect(new Set(first.cells.map((c) => source(c.value)))).toEqual(new Set(['split']));
    expect(bucketsRead).toEqual([0]);
    const keys = first.cells.map((c) => c.key[0]);
    for (let from = first.next; from !== undefined; ) {
      const page = await reader.scan('links', 'c', { limit: 4, from });
      keys.push(...page.cells.map((c) => c.key[0]));
      from = page.next;
    }
    expect([...keys].sort((a, b) => a! - b!)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(new Set(bucketsRead)).toEqual(new Set([0, 1, 2]));
  });

  it('scanMany scans a partition the directory holds on its own (a COMPLETED split through its buckets) and the rest in one batch of the original', async () => {
    const batches: string[][] = [];
    const recording = (plain: PartitionReader): PartitionReader => ({
      ...plain,
      scanMany: (namespace, ids, query) => {
        batches.push([...ids]);
        return plain.scanMany(namespace, ids, query);
      },
    });
    const { reader } = await setup('COMPLETED', undefined, recording);
    const pages = await reader.scanMany('links', ['d', 'c', 'e', 'never'], { limit: 5 });
    expect(batches).toEqual([['d', 'e', 'never']]);
    expect(pages.map((p) => [p.cells.length, [...new Set(p.cells.map((c) => source(c.value)))].join(), p.next !== undefined])).toEqual([
      [3, 'original', false],
      [5, 'split', true],
      [3, 'original', false],
      [0, '', false],
    ]);
    expect(pages[1]!.next?.split).toBeDefined(); // continues bucket by bucket
    expect((await reader.scanMany('other', ['c', 'd'], { limit: 2 })).map((p) => p.cells.length)).toEqual([0, 0]);
    expect(batches.at(-1)).toEqual(['c', 'd']); // not a splittable namespace: never asks the directory
  });

  it('scans an unsplit partition in key order, like pages', async () => {
    const { reader } = await setup('PLANNED');
    const first = await reader.scan('links', 'c', { limit: 15 });
    const rest = await reader.scan('links', 'c', { limit: 15, from: first.next! });
    expect([...first.cells, ...rest.cells].map((c) => [c.key[0], source(c.value)])).toEqual(Array.from({ length: 20 }, (_, i) => [i, 'original']));
    expect(rest.next).toBeUndefined();
  });
});

