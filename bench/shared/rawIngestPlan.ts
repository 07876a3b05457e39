import { mergeByReplicaSet, type CrossPartitionLimits } from '../../sinks/cassandra/mergeByReplicaSet.ts';
import type { BoundStatement } from '../../sinks/cassandra/cassandraSession.ts';
import { asBuffer } from '../../sinks/cassandra/namespaceRuntime.ts';
import { deletionStatements } from '../../sinks/cassandra/deletionStatements.ts';
import type { NamespaceStatements } from '../../sinks/cassandra/namespaceStatements.ts';
import { splitBatches, statementsBytes } from '../../sinks/cassandra/splitBatches.ts';
import { consolidateMutations, type PartitionWrites } from '../../sinks/store/consolidateMutations.ts';
import type { Mutation } from '../../sinks/store/TwoLevelMapStore.ts';

/** One request: the statements of one batch (or a lone statement) and the partition it is routed by (its first). */
export interface RawRequest {
  readonly routingId: string;
  readonly statements: BoundStatement[];
}

/** The limits the store's `mutateMany` cuts a wave's writes by (its config defaults unless tuned). */
export interface BatchLimits extends CrossPartitionLimits {
  /** Payload of one single-partition batch (`maxBatchBytes`); cross-partition batches use `maxBytes`. */
  readonly maxPartitionBatchBytes: number;
}

const EMPTY = Buffer.alloc(0);

/**
 * The requests one write wave of a chunk costs when sent as edgestream's store
 * sends it (`createCassandraStore.mutateMany`): mutations consolidated per
 * (namespace, id), the groups of one id colocated in one single-partition
 * batch, partitions of one replica set merged up to `limits`
 * (`mergeByReplicaSet`), each unit cut by `splitBatches`. Only plain rows and
 * row deletions: the bench's rows are never chunked, cleared or range-deleted
 * (a caller that meets one gets an error, not a silently different shape).
 * A request of one statement is sent as itself, not as a batch.
 */
export function waveRequests(mutations: readonly Mutation[], o: { statementsOf: (namespace: string) => NamespaceStatements; replicaSetOf: (id: string) => string | undefined; limits: BatchLimits }): RawRequest[] {
  const byId = new Map<string, PartitionWrites[]>();
  for (const g of consolidateMutations(mutations)) {
    if (g.clears.length > 0 || g.prefixClears.length > 0) throw new Error(`raw ingest: ${g.namespace}/${g.id} clears a partition or prefix; the raw writer sends rows and row deletions only`);
    const same = byId.get(g.id);
    if (same === undefined) byId.set(g.id, [g]);
    else same.push(g);
  }
  const units = [...byId.entries()].map(([id, groups]) => {
    const rows: BoundStatement[] = [];
    for (const g of groups) {
      const cql = o.statementsOf(g.namespace);
      rows.push(...deletionStatements(cql, id, g.deletions));
      for (const a of g.additions) rows.push({ query: cql.insert, params: [id, asBuffer(a.key), asBuffer(a.value), EMPTY, a.writeTime] });
    }
    return { id, rows, replicaSet: o.limits.maxPartitions > 1 ? o.replicaSetOf(id) : undefined, statementCount: rows.length, bytes: statementsBytes(rows) };
  });
  return mergeByReplicaSet(units, o.limits).flatMap((merged) => {
    const routingId = (merged[0] as (typeof units)[number]).id;
    return splitBatches(merged.flatMap((u) => u.rows), o.limits.maxStatements, o.limits.maxPartitionBatchBytes).map((statements) => ({ routingId, statements }));
  });
}

/** One chunk of events of one input partition, in offset order, as a consumer of that partition takes it. */
export interface EventChunk<E> {
  readonly partition: number;
  readonly events: readonly E[];
}

/**
 * Cuts a stream of events into the chunks the pipeline's consumers take:
 * events go to their input partition (`partitionOf`, the producer's
 * partitioner), each partition's events in order, `chunkEvents` per chunk. A
 * chunk is yielded as soon as it is full; the remainders at the end, by partition.
 */
export function* chunksByPartition<E>(events: Iterable<E>, partitionOf: (e: E) => number, chunkEvents: number): Generator<EventChunk<E>> {
  if (!Number.isInteger(chunkEvents) || chunkEvents < 1) throw new RangeError(`chunkEvents must be an integer >= 1, got ${chunkEvents}`);
  const open = new Map<number, E[]>();
  for (const e of events) {
    const p = partitionOf(e);
    let chunk = open.get(p);
    if (chunk === undefined) open.set(p, (chunk = []));
    chunk.push(e);
    if (chunk.length === chunkEvents) {
      open.delete(p);
      yield { partition: p, events: chunk };
    }
  }
  for (const p of [...open.keys()].sort((a, b) => a - b)) yield { partition: p, events: open.get(p) as E[] };
}

/**
 * Whether a chunk must wait for an earlier one still in flight: they share an
 * edge, so the later one's current-link read must see the earlier one's link
 * (the runtime's rule for overlapped chunks, docs/architecture.md §5).
 */
export function sharesEdge(edges: ReadonlySet<string>, earlier: ReadonlySet<string>): boolean {
  const [small, large] = edges.size <= earlier.size ? [edges, earlier] : [earlier, edges];
  for (const e of small) if (large.has(e)) return true;
  return false;
}
