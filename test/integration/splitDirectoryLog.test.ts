import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completedRecord, writeWideRows } from '../../bench/directory/seedWideRows.ts';
import { WIDE_ROWS_LOG_NAMESPACE, WIDE_ROWS_NAMESPACE } from '../../sinks/namespaces/index.ts';
import { decorateStore, type TwoLevelMapStore } from '../../sinks/store/index.ts';
import { createConfiguredSplitDirectory, createWideRowRepository } from '../../sinks/wide/index.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from '../support/edgestreamEnv.ts';

// Issue 16 on the real Cassandra: `init` creates the wide_rows change log with its TTL, a record
// written through the repository reaches a directory by a refresh that reads only the log, and
// records written without it (seeded straight into wide_rows) by a full reload.

describe('split directory change log (real Cassandra)', () => {
  let env: EdgestreamEnv;
  const slices = { wideRows: 0, log: 0 };
  const counting = (inner: TwoLevelMapStore) =>
    decorateStore(inner, {
      namespace: (name) => {
        const ns = inner.namespace(name);
        if (name !== WIDE_ROWS_NAMESPACE && name !== WIDE_ROWS_LOG_NAMESPACE) return ns;
        return { ...ns, slice: (id, query) => (name === WIDE_ROWS_NAMESPACE ? slices.wideRows++ : slices.log++, ns.slice(id, query)) };
      },
    });

  beforeAll(async () => {
    env = await createEdgestreamEnv({ name: 'dirlog' });
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it('init creates wide_rows_log with a default TTL and no grace period', async () => {
    const row = (await env.cql.execute('SELECT default_time_to_live, gc_grace_seconds FROM system_schema.tables WHERE keyspace_name = ? AND table_name = ?', [env.config.cassandra.keyspace, WIDE_ROWS_LOG_NAMESPACE], { prepare: true })).first();
    expect([row.get('default_time_to_live'), row.get('gc_grace_seconds')]).toEqual([86_400, 0]);
  });

  it('a full reload finds seeded records; a refresh then reads only the log and finds records written since', async () => {
    const now = Date.now() * 1_000;
    await writeWideRows(env.store, Array.from({ length: 2_500 }, (_, i) => completedRecord('follows_in', `seeded-${i}`, now)), () => undefined);
    const directory = createConfiguredSplitDirectory(counting(env.store), env.config);
    await directory.rebuild();
    expect(directory.stats.records).toBe(2_500);
    expect(directory.mightHaveRecord('follows_in', 'seeded-2499')).toBe(true);
    expect(slices.wideRows).toBeGreaterThanOrEqual(3); // pages of 1 000

    const repository = createWideRowRepository(env.store);
    await repository.put(completedRecord('follows_in', 'celeb', now));
    await repository.put({ ...completedRecord('likes_in', 'star', now), status: 'PLANNED' });
    slices.wideRows = 0;
    slices.log = 0;
    await directory.refresh();
    expect(slices.wideRows).toBe(0);
    expect(slices.log).toBeGreaterThan(0);
    expect(directory.mightHaveRecord('follows_in', 'celeb')).toBe(true);
    expect(directory.mightHaveRecord('likes_in', 'star')).toBe(true);
    expect((await directory.record('likes_in', 'star'))?.status).toBe('PLANNED');
    expect(directory.stats).toMatchObject({ records: 2_502, rebuilds: 1, refreshes: 2, logEntriesRead: 2 });
    expect(directory.isFresh()).toBe(true);
  });
});
