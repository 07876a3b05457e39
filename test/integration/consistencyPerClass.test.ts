import { randomBytes } from 'node:crypto';
import cassandra from 'cassandra-driver';
import { afterAll, describe, expect, it } from 'vitest';
import { createCassandraStore } from '../../sinks/cassandra/index.ts';
import type { TwoLevelMapStore } from '../../sinks/store/TwoLevelMapStore.ts';
import { stackEndpoints } from '../support/stack.ts';

// The store runs writes at `consistency.writes` and reads at `consistency.reads`. Shown on the
// one-node stack with a keyspace at replication factor 2: ONE needs the one live replica, QUORUM
// needs both, so the operation class whose level is QUORUM fails as unavailable, and only it.

describe('consistency per operation class', () => {
  const endpoints = stackEndpoints();
  const keyspace = `it_levels_${randomBytes(4).toString('hex')}`;
  const dc = endpoints.cassandraLocalDc;
  const stores: TwoLevelMapStore[] = [];
  const open = async (consistency: { writes: 'ONE' | 'QUORUM'; reads: 'ONE' | 'QUORUM' }) => {
    const store = await createCassandraStore({
      contactPoints: [...endpoints.cassandraContactPoints],
      localDataCenter: dc,
      keyspace,
      replication: { class: 'SimpleStrategy', replicationFactor: 2 },
      consistency,
      namespaces: [{ name: 'levels', chunking: false }],
      requestTimeoutMs: 10_000,
    });
    stores.push(store);
    return store;
  };
  const key = Uint8Array.of(1);

  afterAll(async () => {
    for (const s of stores) await s.close();
    const admin = new cassandra.Client({ contactPoints: [...endpoints.cassandraContactPoints], localDataCenter: dc, socketOptions: { readTimeout: 60_000 } });
    await admin.execute(`DROP KEYSPACE IF EXISTS ${keyspace}`).finally(() => admin.shutdown());
  });

  it('writes at the writes level and reads at the reads level', async () => {
    const readsNeedBoth = await open({ writes: 'ONE', reads: 'QUORUM' });
    await readsNeedBoth.init();
    await readsNeedBoth.namespace('levels').put('v', key, Uint8Array.of(7), 1n);
    await expect(readsNeedBoth.namespace('levels').get('v', key)).rejects.toMatchObject({ code: 'unavailable' });

    const writesNeedBoth = await open({ writes: 'QUORUM', reads: 'ONE' });
    expect((await writesNeedBoth.namespace('levels').get('v', key))?.value).toEqual(Uint8Array.of(7));
    await expect(writesNeedBoth.namespace('levels').put('v', key, Uint8Array.of(8), 2n)).rejects.toMatchObject({ code: 'unavailable' });
  });
});
