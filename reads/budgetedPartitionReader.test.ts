import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../sinks/memory/index.ts';
import { budgetedPartitionReader } from './budgetedPartitionReader.ts';
import { createStorePartitionReader } from './createStorePartitionReader.ts';
import { createReadBudget } from './readBudget.ts';
import { isReadLimitError } from './ReadLimitError.ts';
import { recordingPartitionReader } from './testing/recordingPartitionReader.ts';

async function setup(maxRows: number) {
  const store = createMemoryStore({ namespaces: [{ name: 'links' }] });
  for (const id of ['a', 'b', 'c']) for (let k = 0; k < 10; k++) await store.namespace('links').put(id, Uint8Array.of(k), Uint8Array.of(1), 1n);
  const recording = recordingPartitionReader(createStorePartitionReader(store));
  const budget = createReadBudget({ maxRows, maxQueries: 100, deadlineMs: 10_000 });
  return { reader: budgetedPartitionReader(recording.reader, budget, 'test'), recording, budget };
}

describe('budgetedPartitionReader.scanMany', () => {
  it('claims ids × limit rows for one query and keeps only the rows read', async () => {
    const { reader, recording, budget } = await setup(1_000);
    const pages = await reader.scanMany('links', ['a', 'b', 'c'], { limit: 4 });
    expect(pages.map((p) => p.cells.length)).toEqual([4, 4, 4]);
    expect(recording.calls.map((c) => [c.kind, c.limit])).toEqual([['scanMany', 4]]);
    expect(budget.spent).toEqual({ queries: 1, rows: 12 });
  });

  it('lowers every id’s limit alike when the budget grants fewer rows, and refuses a grant below one row per id', async () => {
    const { reader, recording } = await setup(7);
    await reader.scanMany('links', ['a', 'b', 'c'], { limit: 4 });
    expect(recording.calls.map((c) => c.limit)).toEqual([2]);
    const refused = await reader.scanMany('links', ['a', 'b', 'c'], { limit: 4 }).catch((e: unknown) => e);
    expect(isReadLimitError(refused) && refused.reason).toBe('read_budget');
    expect(await reader.scanMany('links', [], { limit: 4 })).toEqual([]);
  });
});
