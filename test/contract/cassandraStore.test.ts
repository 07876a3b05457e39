import cassandra from 'cassandra-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCassandraStore } from '../../sinks/cassandra/createCassandraStore.ts';
import { cassandraStoreConfigSchema, type CassandraStoreConfig } from '../../sinks/cassandra/cassandraStoreConfig.ts';
import { createCassandraSession } from '../../sinks/cassandra/cassandraSession.ts';
import type { TwoLevelMapStore } from '../../sinks/store/TwoLevelMapStore.ts';
import { stackEndpoints } from '../support/stack.ts';
import { b, expectStoreError, freshId, hex, patternBytes } from './contractHelpers.ts';
import { CONTRACT_NAMESPACES, describeTwoLevelMapStoreContract } from './twoLevelMapStoreContract.ts';

// One keyspace per run, dropped at the end; tables are created once by the contract's beforeAll.
const keyspace = `contract_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
const endpoints = stackEndpoints();
const connection = {
  contactPoints: [...endpoints.cassandraContactPoints],
  localDataCenter: endpoints.cassandraLocalDc,
  keyspace,
} satisfies Partial<CassandraStoreConfig>;

// File-level, so the keyspace is dropped even when a suite's own setup failed.
afterAll(async () => {
  const admin = new cassandra.Client({ contactPoints: connection.contactPoints, localDataCenter: connection.localDataCenter });
  try {
    await admin.execute(`DROP KEYSPACE IF EXISTS ${keyspace}`);
  } finally {
    await admin.shutdown();
  }
});

describeTwoLevelMapStoreContract(
  'cassandra store',
  async (spec) => createCassandraStore({ ...connection, namespaces: spec.namespaces }),
  { modelRuns: 40 },
);

const write = (namespace: string, id: string, key: number) => ({ namespace, id, writeTime: 1n, deletions: [], additions: [{ key: b(key), value: b(key) }] });

describe('cassandra store specifics', () => {
  let store: TwoLevelMapStore;
  let raw: cassandra.Client;

  beforeAll(async () => {
    store = await createCassandraStore({ ...connection, namespaces: CONTRACT_NAMESPACES });
    await store.init();
    raw = new cassandra.Client({ ...connection, encoding: { useBigIntAsLong: true } });
    await raw.connect();
  });

  afterAll(async () => {
    await store?.close();
    await raw?.shutdown();
  });

  const chunkVersions = async (id: string, key: Uint8Array): Promise<string[]> => {
    const rs = await raw.execute(`SELECT write_ts, idx FROM ${keyspace}.c_tiny__chunks WHERE id = ? AND key = ?`, [id, Buffer.from(key)], {
      prepare: true,
    });
    return [...new Set(rs.rows.map((r) => String(r.get('write_ts'))))];
  };

  it('keeps only the chunks of the live version: overwrites, deletes and late older writes collect them', async () => {
    const tiny = store.namespace('c_tiny');
    const id = freshId('gc');
    await tiny.put(id, b(1), patternBytes(100, 1), 10n);
    expect(await chunkVersions(id, b(1))).toEqual(['10']);
    await tiny.put(id, b(1), patternBytes(90, 2), 20n);
    expect(await chunkVersions(id, b(1))).toEqual(['20']);
    await tiny.put(id, b(1), patternBytes(80, 3), 15n); // late and older: shadowed at once
    expect(await chunkVersions(id, b(1))).toEqual(['20']);
    await tiny.put(id, b(1), b(7), 30n);
    expect(await chunkVersions(id, b(1))).toEqual([]);
    await tiny.put(id, b(2), patternBytes(100, 4), 10n);
    await tiny.delete(id, b(2), 11n);
    expect(await chunkVersions(id, b(2))).toEqual([]);
    await tiny.put(id, b(3), patternBytes(100, 5), 10n);
    expect(await tiny.deleteNewest(id, 1, 12n)).toBe(1);
    expect(await chunkVersions(id, b(3))).toEqual([]);
  });

  it('a clear collects the chunks of the keys its group writes; the others\' chunks wait for their key\'s next newer write', async () => {
    const tiny = store.namespace('c_tiny');
    const id = freshId('clear-gc');
    await tiny.put(id, b(1), patternBytes(100, 21), 10n);
    await tiny.put(id, b(2), patternBytes(100, 22), 10n);
    await store.mutateMany([{ namespace: 'c_tiny', id, writeTime: 11n, clear: true, deletions: [], additions: [{ key: b(2), value: b(2) }] }]);
    expect(await chunkVersions(id, b(1))).toEqual(['10']); // unreachable: its row is gone
    expect(await chunkVersions(id, b(2))).toEqual([]);
    expect(await tiny.get(id, b(1))).toBeUndefined();
    await tiny.put(id, b(1), b(1), 12n);
    expect(await chunkVersions(id, b(1))).toEqual([]);
  });

  it('stores a chunked value as an empty value plus metadata in the namespace row', async () => {
    const id = freshId('layout');
    await store.namespace('c_tiny').put(id, b(1), patternBytes(100, 6), 5n);
    const rs = await raw.execute(`SELECT value, value_metadata, WRITETIME(value) AS wt FROM ${keyspace}.c_tiny WHERE id = ?`, [id], { prepare: true });
    const row = rs.rows[0];
    expect(hex(row?.get('value') as Buffer)).toBe('');
    expect((row?.get('value_metadata') as Buffer).length).toBe(49);
    expect(row?.get('wt')).toBe(5n);
  });

  it('never returns a chunked value whose chunks are gone or altered: get fails with a retriable chunks_missing', async () => {
    const tiny = store.namespace('c_tiny');
    const [gone, altered] = [freshId('chunks-gone'), freshId('chunks-altered')];
    await tiny.put(gone, b(1), patternBytes(100, 11), 5n);
    await tiny.put(altered, b(1), patternBytes(100, 12), 5n);
    await raw.execute(`DELETE FROM ${keyspace}.c_tiny__chunks WHERE id = ? AND key = ?`, [gone, Buffer.from([1])], { prepare: true });
    await raw.execute(`UPDATE ${keyspace}.c_tiny__chunks USING TIMESTAMP 6 SET data = ? WHERE id = ? AND key = ? AND write_ts = 5 AND digest = ? AND idx = 0`, [
      Buffer.alloc(16),
      altered,
      Buffer.from([1]),
      (await raw.execute(`SELECT digest FROM ${keyspace}.c_tiny__chunks WHERE id = ? AND key = ? LIMIT 1`, [altered, Buffer.from([1])], { prepare: true })).rows[0]?.get('digest'),
    ], { prepare: true });
    for (const id of [gone, altered]) {
      expect((await expectStoreError(() => tiny.get(id, b(1)), 'chunks_missing')).retriable).toBe(true);
      await expectStoreError(() => tiny.slice(id, { limit: 5 }), 'chunks_missing');
    }
  });

  it('reports failed partitions of mutateMany per input mutation and still applies the others', async () => {
    const mixed = await createCassandraStore({ ...connection, namespaces: [{ name: 'c_main' }, { name: 'c_not_created' }] });
    try {
      const [id, other] = [freshId('partial'), freshId('partial-other')];
      const err = await expectStoreError(
        () => mixed.mutateMany([write('c_main', id, 1), write('c_not_created', other, 2), write('c_main', id, 3)]),
        'partial_failure',
      );
      expect(err.retriable).toBe(false);
      expect(err.failures.map((f) => [f.mutationIndexes, f.error.code])).toEqual([[[1], 'invalid_query']]);
      expect(hex((await mixed.namespace('c_main').get(id, b(3)))?.value ?? b())).toBe('03');
    } finally {
      await mixed.close();
    }
  });

  it('a mutateMany timeout bounds the wait: a spent one sends nothing and fails retriably, one with time left writes', async () => {
    const id = freshId('deadline');
    const err = await expectStoreError(() => store.mutateMany([write('c_main', id, 1), write('c_plain', id, 2)], { timeoutMs: 0 }), 'partial_failure');
    expect(err.failures.map((f) => [f.error.code, f.error.retriable])).toEqual([['timeout', true]]);
    expect(await store.namespace('c_main').get(id, b(1))).toBeUndefined();
    await store.mutateMany([write('c_main', id, 1)], { timeoutMs: 10_000 });
    expect(hex((await store.namespace('c_main').get(id, b(1)))?.value ?? b())).toBe('01');
  });

  it('writes the groups of namespaces that share an id as one batch: they succeed or fail together', async () => {
    for (const colocateWrites of [true, false]) {
      const mixed = await createCassandraStore({ ...connection, colocateWrites, namespaces: [{ name: 'c_main' }, { name: 'c_not_created' }] });
      try {
        const [id, other] = [freshId(`colocated-${colocateWrites}`), freshId(`colocated-other-${colocateWrites}`)];
        const err = await expectStoreError(
          () => mixed.mutateMany([write('c_main', id, 1), write('c_not_created', id, 2), write('c_main', other, 3)]),
          'partial_failure',
        );
        // Co-located: c_main/id rode in the failed batch, so it is reported and not written.
        expect(err.failures.map((f) => f.mutationIndexes)).toEqual(colocateWrites ? [[0, 1]] : [[1]]);
        expect((await mixed.namespace('c_main').get(id, b(1))) === undefined).toBe(colocateWrites);
        expect(hex((await mixed.namespace('c_main').get(other, b(3)))?.value ?? b())).toBe('03');
      } finally {
        await mixed.close();
      }
    }
  });

  it('token-aware batching engages: one replica set on a one-node cluster, and every merged partition lands', async () => {
    const session = createCassandraSession(cassandraStoreConfigSchema.parse({ ...connection, namespaces: CONTRACT_NAMESPACES }));
    await session.connect();
    try {
      const sets = new Set(Array.from({ length: 20 }, (_, i) => session.replicaSetOf(keyspace, `v${i}`)));
      expect(sets.size).toBe(1);
      expect([...sets][0]).toMatch(/\S/);
      expect(session.replicaSetOf('no_such_keyspace', 'v0')).toBeUndefined();
    } finally {
      await session.shutdown();
    }
    const ids = Array.from({ length: 37 }, (_, i) => freshId(`merged-${i}`));
    await store.mutateMany(ids.map((id, i) => write('c_main', id, i % 250)));
    const values = await Promise.all(ids.map(async (id, i) => hex((await store.namespace('c_main').get(id, b(i % 250)))?.value ?? b())));
    expect(values).toEqual(ids.map((_, i) => hex(b(i % 250))));
  });

  it('creates a resurrection-safe namespace with gc_grace_seconds 0 and leaves the others at the table options', async () => {
    const marks = await createCassandraStore({
      ...connection,
      tableOptions: { gcGraceSeconds: 3600 },
      namespaces: [{ name: 'c_marks', chunking: false, resurrectionSafe: true }, { name: 'c_unmarked', chunking: false }],
    });
    try {
      await marks.init();
    } finally {
      await marks.close();
    }
    const rs = await raw.execute('SELECT table_name, gc_grace_seconds FROM system_schema.tables WHERE keyspace_name = ? AND table_name IN ?', [keyspace, ['c_marks', 'c_unmarked']], {
      prepare: true,
    });
    expect(Object.fromEntries(rs.rows.map((r) => [r.get('table_name') as string, r.get('gc_grace_seconds') as number]))).toEqual({ c_marks: 0, c_unmarked: 3600 });
  });

  it('reports an unreachable cluster as a retriable unavailable error', async () => {
    const err = await expectStoreError(
      () => createCassandraStore({ ...connection, contactPoints: ['127.0.0.1:1'], namespaces: [] }),
      'unavailable',
    );
    expect(err.retriable).toBe(true);
    expect(err.cause).toBeDefined();
  });

  it('reports a missing table as a permanent invalid_query error', async () => {
    const other = await createCassandraStore({ ...connection, namespaces: [{ name: 'c_never_created' }] });
    try {
      const err = await expectStoreError(() => other.namespace('c_never_created').get('x', b(1)), 'invalid_query');
      expect(err.retriable).toBe(false);
    } finally {
      await other.close();
    }
  });
});
