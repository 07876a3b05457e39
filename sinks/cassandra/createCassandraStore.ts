import { consolidateMutations, type PartitionWrites } from '../store/consolidateMutations.ts';
import { mapBounded } from '../store/mapBounded.ts';
import { StoreError, type MutationFailure } from '../store/StoreError.ts';
import { parseConfig, resolveNamespaces, type NamespaceSettings } from '../store/storeConfig.ts';
import type { Mutation, NamespaceStore, StoreFeatures, TwoLevelMapStore } from '../store/TwoLevelMapStore.ts';
import { assertMutation } from '../store/validateArgs.ts';
import { cassandraStoreConfigSchema, type CassandraStoreConfig, type ParsedCassandraStoreConfig } from './cassandraStoreConfig.ts';
import { createCassandraNamespace } from './createCassandraNamespace.ts';
import { createCassandraSession, type CassandraSession } from './cassandraSession.ts';
import type { NamespaceRuntime } from './namespaceRuntime.ts';
import { namespaceStatements } from './namespaceStatements.ts';
import { createChunkTableCql, createKeyspaceCql, createNamespaceTableCql } from './schemaCql.ts';
import { toStoreError } from './toStoreError.ts';
import { writePartition } from './writePartition.ts';

/**
 * The TwoLevelMapStore on Cassandra (cassandra-driver 4). Validates the
 * config (throwing `invalid_config` naming the field before any connection),
 * connects, and returns the store; call `init()` to create the keyspace and
 * tables. Each namespace is one table `(id text, key blob, value blob,
 * value_metadata blob, PRIMARY KEY (id, key))`, plus `<namespace>__chunks`
 * when chunking is on (see `writePartition` for the chunk protocol).
 */
export async function createCassandraStore(config: CassandraStoreConfig): Promise<TwoLevelMapStore> {
  const parsed = parseConfig(cassandraStoreConfigSchema, config, 'cassandra store config');
  const session = createCassandraSession(parsed);
  await session.connect();
  return openStore(parsed, session);
}

function openStore(parsed: ParsedCassandraStoreConfig, session: CassandraSession): TwoLevelMapStore {
  const settings = resolveNamespaces(parsed.namespaces, parsed);
  const runtimes = new Map<string, NamespaceRuntime>(
    settings.map((s) => [s.name, { settings: s, statements: namespaceStatements(parsed.keyspace, s.name), session, tuning: parsed }]),
  );
  const bound = new Map<string, NamespaceStore>();
  let closed = false;
  const runtimeOf = (name: string): NamespaceRuntime => {
    if (closed) throw new StoreError('closed', 'cassandra store is closed');
    const runtime = runtimes.get(name);
    if (runtime === undefined) throw new StoreError('unknown_namespace', `namespace '${name}' is not configured`);
    return runtime;
  };

  return {
    features: featuresOf({ chunking: true, maxInlineValueBytes: parsed.maxInlineValueBytes, maxValueBytes: parsed.maxValueBytes }),
    namespaces: settings.map((s) => s.name),
    async init() {
      await session.ddl(createKeyspaceCql(parsed.keyspace, parsed.replication), `create keyspace ${parsed.keyspace}`);
      for (const s of settings) {
        await session.ddl(createNamespaceTableCql(parsed.keyspace, s.name, parsed.tableOptions), `create table ${s.name}`);
        if (s.chunking) {
          await session.ddl(createChunkTableCql(parsed.keyspace, s.name, parsed.tableOptions), `create chunk table of ${s.name}`);
        }
      }
    },
    namespace(name) {
      const runtime = runtimeOf(name);
      let store = bound.get(name);
      if (store === undefined) bound.set(name, (store = createCassandraNamespace(runtime, featuresOf(runtime.settings))));
      return store;
    },
    async mutateMany(mutations: readonly Mutation[]) {
      for (const m of mutations) assertMutation(m, runtimeOf(m.namespace).settings.maxValueBytes);
      const groups = consolidateMutations(mutations);
      const settled = await mapBounded(groups, parsed.mutationConcurrency, (g) => writePartition(runtimeOf(g.namespace), g));
      throwFailures(groups, settled);
    },
    async close() {
      closed = true;
      await session.shutdown();
    },
  };
}

function featuresOf(s: Pick<NamespaceSettings, 'chunking' | 'maxInlineValueBytes' | 'maxValueBytes'>): StoreFeatures {
  return Object.freeze({
    orderedKeys: true,
    writeTimestamps: true,
    batchMutation: true,
    rangeDeletes: true,
    chunking: s.chunking,
    maxInlineValueBytes: s.chunking ? s.maxInlineValueBytes : s.maxValueBytes,
    maxValueBytes: s.maxValueBytes,
    persistent: true,
  });
}

/** Reports failed groups per input mutation (Benthos BatchError): the others were applied. */
function throwFailures(groups: readonly PartitionWrites[], settled: readonly PromiseSettledResult<void>[]): void {
  const failures: MutationFailure[] = [];
  settled.forEach((result, i) => {
    if (result.status === 'rejected') {
      failures.push({ mutationIndexes: (groups[i] as PartitionWrites).mutationIndexes, error: toStoreError(result.reason, 'mutateMany') });
    }
  });
  const first = failures[0];
  if (first === undefined) return;
  throw new StoreError(
    'partial_failure',
    `${failures.length} of ${groups.length} partition writes failed; first: ${first.error.message}`,
    { cause: first.error, failures },
  );
}
