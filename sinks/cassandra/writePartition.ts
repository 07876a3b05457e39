import type { PartitionWrites, TimedKeyValue } from '../store/consolidateMutations.ts';
import { mapBoundedOrThrow } from '../store/mapBounded.ts';
import { prefixEnd } from '../store/prefixEnd.ts';
import type { BoundStatement } from './cassandraSession.ts';
import { encodeChunkMetadata } from './chunkMetadata.ts';
import { deletionStatements } from './deletionStatements.ts';
import { digestOf, splitValue } from './chunkValue.ts';
import { asBuffer, type NamespaceRuntime } from './namespaceRuntime.ts';
import { splitBatches, statementsBytes } from './splitBatches.ts';

const EMPTY = Buffer.alloc(0);

/** One consolidated partition group and the namespace it belongs to. */
export interface NamespaceGroup {
  readonly ns: NamespaceRuntime;
  readonly group: PartitionWrites;
}

/**
 * Writes consolidated partition groups that share one partition key value
 * (`id`): one group, or the groups of several namespaces of the same keyspace
 * with the same id (`T_out[v]` and `T_out_recent[v]`). Every namespace table
 * has the partition key `id text`, so these rows have one token and Cassandra
 * applies one unlogged batch of them as a single mutation: one request, one
 * commit-log entry, no multi-partition batch. Every statement carries its own
 * `USING TIMESTAMP`, so statement order never changes the outcome, except for
 * chunked values, which go in three steps:
 *
 * 1. the chunks of each large value (`<namespace>__chunks`, same timestamp),
 * 2. the main rows, in unlogged batches of that one partition key (a chunked
 *    value's row holds an empty `value` and its chunk metadata), so a reader
 *    never follows metadata to chunks that are not written yet. Each group's
 *    clears (partition tombstones, and range tombstones for prefix clears;
 *    times already lowered by `consolidateMutations`) come before its rows, so they share a batch with
 *    them; each statement keeps its own timestamp inside the batch,
 * 3. chunk collection: for each key, a partition delete of its chunk
 *    partition at T-1 after a put at T (chunks are written at their own
 *    write_ts, so this drops exactly the versions older than T, and shadows
 *    older ones that arrive later) and at T after a delete at T. It runs last
 *    so a failure earlier never leaves a live row pointing at collected chunks.
 *    A clear collects only the chunks of the keys the group itself writes:
 *    the other keys' chunk partitions are not enumerable without a scan, and
 *    stay as unreachable garbage until their key's next newer write.
 *
 * A failure at any step throws; repeating all the groups converges.
 */
export async function writePartitionGroups(parts: readonly NamespaceGroup[]): Promise<void> {
  const first = parts[0];
  if (first === undefined) return;
  await writeUnit(first.ns, partitionStatements(parts), () => describeParts(parts));
}

/** `write <namespace>+<namespace>/<id>`, for error messages. */
export function describeParts(parts: readonly NamespaceGroup[]): string {
  return `write ${parts.map((p) => p.ns.settings.name).join('+')}/${parts[0]?.group.id ?? ''}`;
}

/** The units of several partitions as one, each step's statements in unit order. */
export function concatUnits(units: readonly UnitStatements[]): UnitStatements {
  return {
    chunkWrites: units.flatMap((u) => u.chunkWrites),
    rows: units.flatMap((u) => u.rows),
    collections: units.flatMap((u) => u.collections),
    rowBytes: units.reduce((sum, u) => sum + u.rowBytes, 0),
  };
}

/** The statements of a write unit (one partition, or several merged by `mergeByReplicaSet`), by step. */
export interface UnitStatements {
  readonly chunkWrites: BoundStatement[];
  readonly rows: BoundStatement[];
  readonly collections: BoundStatement[];
  /** `rows`' payload as `splitBatches` estimates it. */
  readonly rowBytes: number;
}

/** The statements of consolidated groups that share one id (see `writePartitionGroups`). */
export function partitionStatements(parts: readonly NamespaceGroup[]): UnitStatements {
  const chunkWrites: BoundStatement[] = [];
  const rows: BoundStatement[] = [];
  const collections: BoundStatement[] = [];
  const id = parts[0]?.group.id;
  for (const { ns, group } of parts) {
    if (group.id !== id) throw new TypeError(`partitionStatements: ids differ (${id}, ${group.id})`);
    addGroupStatements(ns, group, chunkWrites, rows, collections);
  }
  return { chunkWrites, rows, collections, rowBytes: statementsBytes(rows) };
}

/**
 * Runs a unit's three steps in order: chunks, then the rows in unlogged
 * batches, then chunk collections. `ns` gives the session and tuning (every
 * namespace of a store shares them). No request waits past `deadlineMs`.
 */
export async function writeUnit(ns: NamespaceRuntime, unit: UnitStatements, what: () => string, deadlineMs?: number): Promise<void> {
  const { session, tuning } = ns;
  if (unit.chunkWrites.length > 0) await mapBoundedOrThrow(unit.chunkWrites, tuning.chunkConcurrency, (s) => session.execute(s, what, deadlineMs));
  for (const batch of splitBatches(unit.rows, tuning.maxBatchStatements, tuning.maxBatchBytes)) {
    await (batch.length === 1 ? session.execute(batch[0] as BoundStatement, what, deadlineMs) : session.batch(batch, what, deadlineMs));
  }
  if (unit.collections.length > 0) {
    await mapBoundedOrThrow(unit.collections, tuning.chunkConcurrency, (s) => session.execute(s, () => `collect chunks: ${what()}`, deadlineMs));
  }
}

/** Writes one consolidated partition group (see `writePartitionGroups`). */
export function writePartition(ns: NamespaceRuntime, group: PartitionWrites): Promise<void> {
  return writePartitionGroups([{ ns, group }]);
}

function addGroupStatements(
  ns: NamespaceRuntime,
  group: PartitionWrites,
  chunkWrites: BoundStatement[],
  rows: BoundStatement[],
  collections: BoundStatement[],
): void {
  const { statements: cql, settings } = ns;
  const id = group.id;
  for (const writeTime of group.clears) rows.push({ query: cql.deletePartition, params: [writeTime, id] });
  for (const { prefix, writeTime } of group.prefixClears) {
    const end = prefixEnd(prefix);
    rows.push(end === undefined ? { query: cql.deleteFrom, params: [writeTime, id, asBuffer(prefix)] } : { query: cql.deleteRange, params: [writeTime, id, asBuffer(prefix), asBuffer(end)] });
  }
  rows.push(...deletionStatements(cql, id, group.deletions));
  for (const a of group.additions) {
    if (settings.chunking && a.value.length > settings.maxInlineValueBytes) {
      const { metadata, chunks } = chunkStatements(ns, id, a);
      chunkWrites.push(...chunks);
      rows.push({ query: cql.insert, params: [id, asBuffer(a.key), EMPTY, metadata, a.writeTime] });
    } else {
      rows.push({ query: cql.insert, params: [id, asBuffer(a.key), asBuffer(a.value), EMPTY, a.writeTime] });
    }
  }
  if (!settings.chunking) return;
  for (const d of group.deletions) collections.push(collectChunks(ns, id, d.key, d.writeTime));
  for (const a of group.additions) if (a.writeTime > 0n) collections.push(collectChunks(ns, id, a.key, a.writeTime - 1n));
}

/** Drops every chunk of (id, key) written at <= `upTo`. */
export function collectChunks(ns: NamespaceRuntime, id: string, key: Uint8Array, upTo: bigint): BoundStatement {
  return { query: ns.statements.chunks.collect, params: [upTo, id, asBuffer(key)] };
}

function chunkStatements(ns: NamespaceRuntime, id: string, a: TimedKeyValue): { metadata: Buffer; chunks: BoundStatement[] } {
  const digest = asBuffer(digestOf(a.value));
  const pieces = splitValue(a.value, ns.settings.chunkBytes);
  const metadata = asBuffer(
    encodeChunkMetadata({ chunkCount: pieces.length, totalBytes: a.value.length, writeTime: a.writeTime, digest }),
  );
  const key = asBuffer(a.key);
  const chunks = pieces.map((data, idx) => ({
    query: ns.statements.chunks.insert,
    params: [id, key, a.writeTime, digest, idx, asBuffer(data), a.writeTime],
  }));
  return { metadata, chunks };
}
