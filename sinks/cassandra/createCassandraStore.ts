import { consolidateMutations, type PartitionWrites } from '../store/consolidateMutations.ts';
import { mapBounded } from '../store/mapBounded.ts';
import { groupByReplicaSet } from '../store/replicaGroups.ts';
import { isStoreError, StoreError, type MutationFailure } from '../store/StoreError.ts';
import { parseConfig, resolveNamespaces, type NamespaceSettings } from '../store/storeConfig.ts';
import type { Mutation, NamespaceStore, NamespaceValues, StoreFeatures, TwoLevelMapStore, WriteOptions } from '../store/TwoLevelMapStore.ts';
import { assertMutation } from '../store/validateArgs.ts';
import { cassandraStoreConfigSchema, type CassandraStoreConfig, type ParsedCassandraStoreConfig } from './cassandraStoreConfig.ts';
import { createCassandraNamespace, createCassandraNamespaceValues } from './createCassandraNamespace.ts';
import { createCassandraSession, type CassandraSession } from './cassandraSession.ts';
import type { NamespaceRuntime } from './namespaceRuntime.ts';
import { namespaceStatements } from './namespaceStatements.ts';
import { createChunkTableCql, createKeyspaceCql, createNamespaceTableCql } from './schemaCql.ts';
import { toStoreError } from './toStoreError.ts';
import { mergeByReplicaSet, type CrossPartitionLimits, type MergeCandidate } from './mergeByReplicaSet.ts';
import { concatUnits, describeParts, partitionStatements, writeUnit, type NamespaceGroup, type UnitStatements } from './writePartition.ts';

/** One partition's consolidated groups, ready to write alone or merged with others of its replica set. */
interface PartitionUnit extends MergeCandidate {
  readonly parts: readonly NamespaceGroup[];
  readonly statements: UnitStatements;
}

/** How the write of one partition ended. */
interface PartitionOutcome {
  readonly unit: PartitionUnit;
  readonly result: PromiseSettledResult<void>;
}

/**
 * The TwoLevelMapStore on Cassandra (cassandra-driver 4). `createCassandraStore`
 * validates the config (throwing `invalid_config` naming the field before
 * any connection), connects, and returns the store; `init()` creates the
 * keyspace and tables. Each namespace is one table
 * `(id text, key blob, value blob, value_metadata blob, PRIMARY KEY (id, key))`.
 *
 * Last-write-wins is Cassandra's own: every write carries `USING TIMESTAMP`
 * = the caller's write time, a put is an INSERT of (value, value_metadata)
 * and a delete a row tombstone, so tombstones win ties and equal-time values
 * are settled per cell by greater bytes.
 *
 * Large values (chunking on, value > maxInlineValueBytes) live in
 * `<namespace>__chunks`, PRIMARY KEY ((id, key), write_ts, digest, idx):
 * - Write: chunks at USING TIMESTAMP T, then the main row with an empty
 *   `value` and `value_metadata` = {count, length, T, SHA-256}
 *   (`chunkMetadata.ts`), then collection of older chunks. Inline puts write
 *   an empty (live, not null) `value_metadata`, so a newer inline value
 *   always overrides older chunk metadata.
 * - Collection: a partition delete of the (id, key) chunk partition at T-1
 *   after a put at T and at T after a delete at T. Chunk cells carry their
 *   own write_ts as timestamp, so this removes exactly the older versions and
 *   also shadows older versions that arrive later. Costs one small extra write
 *   per put/delete in a chunked namespace; turn chunking off for namespaces of
 *   small values.
 * - Read: follow the metadata to (write_ts, digest), reassemble, verify the
 *   digest; if the chunks were collected meanwhile, re-read the row
 *   (`readCells.ts`).
 * - Equal write times: a chunked value beats an inline one (its non-empty
 *   metadata wins the metadata cell); between chunked values the greater
 *   metadata wins. The digest in the clustering key keeps two same-time
 *   versions' chunks apart, so the winner is always complete.
 * - Known garbage (never visible, only space): the losing chunks of an
 *   equal-time tie until the next write of that key; chunks of rows removed
 *   by keepNewest, by a mutation's `clear` (keys the same group does not
 *   write) or by the part of a deleteNewest range the read did not see
 *   (their (id, key) chunk partitions are not enumerable without a scan).
 *   Only a live row leads to its chunks, so these are unreachable; the next
 *   put or delete of the key at a later time collects them.
 * - Clear: `Mutation.clear` is a partition tombstone on the namespace table
 *   (`deletePartition`), sent in the first unlogged batch of the partition's
 *   rows, at the time `consolidateMutations` chose (T, or T-1 when the group
 *   adds at T).
 */
export async function createCassandraStore(config: CassandraStoreConfig): Promise<TwoLevelMapStore> {
  const parsed = parseConfig(cassandraStoreConfigSchema, config, 'cassandra store config');
  const session = createCassandraSession(parsed);
  try {
    await session.connect();
  } catch (e) {
    await session.shutdown().catch(() => undefined); // the connect error is the one worth reporting
    throw e;
  }
  return openStore(parsed, session);
}

function openStore(parsed: ParsedCassandraStoreConfig, session: CassandraSession): TwoLevelMapStore {
  const settings = resolveNamespaces(parsed.namespaces, parsed);
  const runtimes = new Map<string, NamespaceRuntime>(
    settings.map((s) => [s.name, { settings: s, statements: namespaceStatements(parsed.keyspace, s.name), session, tuning: parsed }]),
  );
  const bound = new Map<string, NamespaceStore>();
  const boundValues = new Map<string, NamespaceValues>();
  const crossPartitionLimits: CrossPartitionLimits = {
    maxPartitions: parsed.maxBatchPartitions,
    maxStatements: parsed.maxBatchStatements,
    maxBytes: parsed.maxCrossPartitionBatchBytes,
  };
  /**
   * A merged batch that failed for a reason retrying cannot fix is written
   * again partition by partition (idempotent), so such a failure is reported
   * only for the partitions that cause it, never for the partitions that
   * merely shared its batch. Retriable failures are reported for the whole batch.
   */
  const isolatePermanentFailures = async (
    units: readonly (readonly PartitionUnit[])[],
    settled: readonly PromiseSettledResult<void>[],
    deadlineMs: number | undefined,
  ): Promise<PartitionOutcome[]> => {
    const outcomes: PartitionOutcome[] = [];
    const isolate: PartitionUnit[] = [];
    settled.forEach((result, i) => {
      const merged = units[i] as readonly PartitionUnit[];
      const permanent = result.status === 'rejected' && !(isStoreError(result.reason) && result.reason.retriable);
      if (permanent && merged.length > 1) isolate.push(...merged);
      else for (const unit of merged) outcomes.push({ unit, result });
    });
    if (isolate.length === 0) return outcomes;
    const alone = await mapBounded(isolate, parsed.mutationConcurrency, (unit) => writeMerged([unit], deadlineMs));
    isolate.forEach((unit, i) => outcomes.push({ unit, result: alone[i] as PromiseSettledResult<void> }));
    return outcomes;
  };
  const writeMerged = async (merged: readonly PartitionUnit[], deadlineMs: number | undefined): Promise<void> => {
    const first = merged[0] as PartitionUnit;
    const ns = first.parts[0] as NamespaceGroup;
    if (merged.length === 1) return writeUnit(ns.ns, first.statements, () => describeParts(first.parts), deadlineMs);
    const what = () => `${describeParts(first.parts)} and ${merged.length - 1} more partitions of its replica set`;
    return writeUnit(ns.ns, concatUnits(merged.map((u) => u.statements)), what, deadlineMs);
  };
  let closed = false;
  const configuredRuntime = (name: string): NamespaceRuntime => {
    const runtime = runtimes.get(name);
    if (runtime === undefined) throw new StoreError('unknown_namespace', `namespace '${name}' is not configured`);
    return runtime;
  };
  const runtimeOf = (name: string): NamespaceRuntime => {
    if (closed) throw new StoreError('closed', 'cassandra store is closed');
    return configuredRuntime(name);
  };

  /** A partition's groups with its statements and replica set (the merge's input). */
  const partitionUnit = (groups: readonly PartitionWrites[]): PartitionUnit => {
    const parts = groups.map((group) => ({ ns: runtimeOf(group.namespace), group }));
    const statements = partitionStatements(parts);
    const id = (groups[0] as PartitionWrites).id;
    return {
      parts,
      statements,
      replicaSet: parsed.maxBatchPartitions > 1 ? session.replicaSetOf(parsed.keyspace, id) : undefined,
      bytes: statements.rowBytes,
      statementCount: statements.rows.length,
    };
  };

  return {
    features: featuresOf({ chunking: true, maxInlineValueBytes: parsed.maxInlineValueBytes, maxValueBytes: parsed.maxValueBytes }),
    namespaces: settings.map((s) => s.name),
    async init() {
      await session.ddl(createKeyspaceCql(parsed.keyspace, parsed.replication), `create keyspace ${parsed.keyspace}`);
      for (const s of settings) {
        const options = { ...parsed.tableOptions, ...(s.resurrectionSafe ? { gcGraceSeconds: 0 } : {}), defaultTimeToLiveSeconds: s.expireAfterSeconds };
        await session.ddl(createNamespaceTableCql(parsed.keyspace, s.name, options), `create table ${s.name}`);
        if (s.chunking) {
          await session.ddl(createChunkTableCql(parsed.keyspace, s.name, parsed.tableOptions), `create chunk table of ${s.name}`);
        }
      }
    },
    replicaGroups: (ids) => groupByReplicaSet(ids, (id) => session.replicaSetOf(parsed.keyspace, id)),
    // No closed check here: the session rejects each call on a closed store (see TwoLevelMapStore.namespace).
    namespace(name) {
      const runtime = configuredRuntime(name);
      let store = bound.get(name);
      if (store === undefined) bound.set(name, (store = createCassandraNamespace(runtime, featuresOf(runtime.settings))));
      return store;
    },
    values(name) {
      const runtime = configuredRuntime(name);
      let values = boundValues.get(name);
      if (values === undefined) boundValues.set(name, (values = createCassandraNamespaceValues(runtime)));
      return values;
    },
    async mutateMany(mutations: readonly Mutation[], options?: WriteOptions) {
      const deadlineMs = options?.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs;
      for (const m of mutations) assertMutation(m, runtimeOf(m.namespace).settings.maxValueBytes);
      const groups = consolidateMutations(mutations);
      const partitions = (parsed.colocateWrites ? groupsBySharedId(groups) : groups.map((g) => [g])).map(partitionUnit);
      const units = mergeByReplicaSet(partitions, crossPartitionLimits);
      const settled = await mapBounded(units, parsed.mutationConcurrency, (merged) => writeMerged(merged, deadlineMs));
      const outcomes = await isolatePermanentFailures(units, settled, deadlineMs);
      throwFailures(outcomes, groups.length);
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

/**
 * Groups of different namespaces with the same id, in first-seen order: all
 * tables share the partition key `id text`, so their rows have one token and
 * go out as one single-partition batch (`writePartitionGroups`).
 */
function groupsBySharedId(groups: readonly PartitionWrites[]): PartitionWrites[][] {
  const byId = new Map<string, PartitionWrites[]>();
  for (const g of groups) {
    const same = byId.get(g.id);
    if (same === undefined) byId.set(g.id, [g]);
    else same.push(g);
  }
  return [...byId.values()];
}

/** Reports failed writes per input mutation (Benthos BatchError): the others were applied. */
function throwFailures(outcomes: readonly PartitionOutcome[], groupCount: number): void {
  const failures: MutationFailure[] = [];
  for (const { unit, result } of outcomes) {
    if (result.status === 'fulfilled') continue;
    const { parts } = unit;
    const mutationIndexes = parts.length === 1 ? (parts[0] as NamespaceGroup).group.mutationIndexes : unionSorted(parts.map((p) => p.group.mutationIndexes));
    failures.push({ mutationIndexes, error: toStoreError(result.reason, 'mutateMany') });
  }
  const first = failures[0];
  if (first === undefined) return;
  throw new StoreError(
    'partial_failure',
    `${failures.length} of ${outcomes.length} partition writes (${groupCount} namespace groups) failed; first: ${first.error.message}`,
    { cause: first.error, failures },
  );
}

function unionSorted(lists: readonly (readonly number[])[]): number[] {
  return [...new Set(lists.flat())].sort((a, b) => a - b);
}
