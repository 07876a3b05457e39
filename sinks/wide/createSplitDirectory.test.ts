import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../memory/index.ts';
import type { WideRowRecord } from '../namespaces/index.ts';
import { createSplitDirectory } from './createSplitDirectory.ts';
import { createWideRowRepository, type WideRowRepository } from './wideRowRepository.ts';

const NS = [{ name: 'wide_rows', chunking: false }, { name: 'wide_row_checkpoints', chunking: false }, { name: 'wide_rows_log', chunking: false }];
const record = (partitionId: string): WideRowRecord => ({
  namespace: 'links', partitionId, status: 'COMPLETED', generation: 1, attempts: 1, splitNamespace: 'links_split', strategy: 'hash',
  buckets: 4, boundaries: [], rows: 0, bytes: 0, checksum: '', updatedAt: 1,
});

/** Counts record reads, to tell a primed cache from an on-demand read. */
function counting(repository: WideRowRepository) {
  const calls = { get: 0 };
  const wrapped: WideRowRepository = { ...repository, get: (ns, id) => (calls.get++, repository.get(ns, id)) };
  return { repository: wrapped, calls };
}

describe('split directory', () => {
  it('knows every record, keeps only primeLimit of them cached and reads the rest on demand', async () => {
    const store = createMemoryStore({ namespaces: NS });
    const base = createWideRowRepository(store);
    for (let i = 0; i < 50; i++) await base.put(record(`celeb-${i}`));
    const { repository, calls } = counting(base);
    const directory = createSplitDirectory({ repository, namespaces: ['links'], refreshMs: 60_000, maxStaleMs: 180_000, falsePositiveRate: 0.01, primeLimit: 10 });
    await directory.refresh();
    expect(directory.stats.records).toBe(50);
    for (let i = 0; i < 50; i++) expect(directory.mightHaveRecord('links', `celeb-${i}`)).toBe(true);
    const records = await Promise.all(Array.from({ length: 50 }, (_, i) => directory.record('links', `celeb-${i}`)));
    expect(records.map((r) => r?.partitionId)).toEqual(Array.from({ length: 50 }, (_, i) => `celeb-${i}`));
    expect(calls.get).toBe(40);
  });

  it('yields to the event loop while it builds a large filter', async () => {
    const ids = Array.from({ length: 100_000 }, (_, i) => `celeb-${i}`);
    const repository: WideRowRepository = {
      ...createWideRowRepository(createMemoryStore({ namespaces: NS })),
      async *entries() {
        for (const partitionId of ids) yield { partitionId, status: () => 'COMPLETED' as const, record: () => record(partitionId) };
      },
    };
    const directory = createSplitDirectory({ repository, namespaces: ['links'], refreshMs: 60_000, maxStaleMs: 180_000, falsePositiveRate: 0.01, primeLimit: 0 });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    await directory.refresh();
    clearInterval(timer);
    // Five build slices of 20 000 keys: a timer gets to run between them.
    expect(ticks).toBeGreaterThan(0);
    expect(directory.mightHaveRecord('links', 'celeb-99999')).toBe(true);
  });
});
