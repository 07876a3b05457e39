import cassandra from 'cassandra-driver';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { legacyBagWrites } from '../../processors/migration/legacyBagWrites.ts';
import { EDGE_ID_SEPARATOR, edgePropsNamespace, encodeVertexKey, forwardLinkNamespace } from '../../sinks/namespaces/index.ts';
import type { Cell, TwoLevelMapStore } from '../../sinks/store/TwoLevelMapStore.ts';
import type { StackEndpoints } from '../../stack/endpoints.ts';
import { cassandraConnection } from '../openStore.ts';

/** Every key of the old layout sorts at or after this: old keys are bare names, never starting with 0x00. */
const FIRST_LEGACY_KEY = Uint8Array.of(0x01);

export interface MigrateBagsReport {
  readonly partitions: number;
  readonly moved: number;
}

/**
 * `edgestream migrate-bags`: the one-time move of property bags written by the
 * shared-bag layout into the direction-separated one (processors/migration/legacyBagWrites,
 * docs/architecture.md §5). Lists each `T_props` table's partitions (CQL `SELECT DISTINCT
 * id`, the one thing the store port cannot do), reads only their old-layout keys, looks
 * up which directions have links, and writes the moves through the store. Safe while the
 * upgraded pipeline runs and safe to repeat; run it once every processor runs the new code.
 */
export async function migrateBagsCommand(endpoints: StackEndpoints, config: EdgestreamConfig, store: TwoLevelMapStore): Promise<MigrateBagsReport> {
  const cql = new cassandra.Client(cassandraConnection(endpoints));
  let partitions = 0;
  let moved = 0;
  try {
    for (const { name, symmetric } of config.edgeTypes) {
      for await (const id of partitionIds(cql, config.cassandra.keyspace, edgePropsNamespace(name))) {
        const legacy = await legacyCells(store, edgePropsNamespace(name), id);
        if (legacy.length === 0) continue;
        const [first = '', second = ''] = id.split(EDGE_ID_SEPARATOR);
        const links = store.namespace(forwardLinkNamespace(name));
        const [forward, backward] = await Promise.all([links.get(first, encodeVertexKey(second)), links.get(second, encodeVertexKey(first))]);
        await store.mutateMany(legacyBagWrites(name, id, legacy, symmetric, { forward: forward !== undefined, backward: backward !== undefined }));
        partitions++;
        moved += legacy.length;
      }
    }
  } finally {
    await cql.shutdown();
  }
  return { partitions, moved };
}

async function* partitionIds(cql: cassandra.Client, keyspace: string, table: string): AsyncGenerator<string> {
  let pageState: string | undefined;
  do {
    const rs = await cql.execute(`SELECT DISTINCT id FROM "${keyspace}"."${table}"`, [], { prepare: true, fetchSize: 1_000, ...(pageState ? { pageState } : {}) });
    for (const row of rs.rows) yield row['id'] as string;
    pageState = rs.pageState ?? undefined;
  } while (pageState !== undefined);
}

async function legacyCells(store: TwoLevelMapStore, namespace: string, id: string): Promise<Cell[]> {
  const cells: Cell[] = [];
  let pageState: string | undefined;
  do {
    const page = await store.namespace(namespace).slice(id, { start: FIRST_LEGACY_KEY, limit: 1_000, ...(pageState === undefined ? {} : { pageState }) });
    cells.push(...page.cells);
    pageState = page.pageState;
  } while (pageState !== undefined);
  return cells;
}
