import { syntheticGraph } from '../../cli/workload/syntheticGraph.ts';
import { EdgeOp, type EdgeMutation } from '../../schemas/index.ts';
import {
  edgePropsNamespace,
  forwardLinkNamespace,
  forwardRecentNamespace,
  reverseLinkNamespace,
  reverseRecentNamespace,
} from '../../sinks/namespaces/index.ts';
import { fanOutWaves } from '../shared/fanOutWaves.ts';

/** One ADD_EDGE the bench publishes. */
export interface BenchEdge {
  readonly src: string;
  readonly dst: string;
  readonly properties: Readonly<Record<string, string | bigint | boolean>>;
}

export interface WorkloadOptions {
  readonly edgeType: string;
  readonly users: number;
  readonly zipfExponent: number;
  readonly seed: number;
}

/**
 * An endless stream of ADD_EDGE requests: uniform sources, Zipf-distributed
 * targets (`user-0` is the biggest celebrity), one `via` property each. It is
 * `cli/workload/syntheticGraph` with the unfollow and property-update shares
 * at 0, so every event is an ADD_EDGE.
 */
export function* addEdgeWorkload(o: WorkloadOptions): Generator<BenchEdge> {
  for (const op of syntheticGraph({ events: Number.MAX_SAFE_INTEGER, users: o.users, edgeType: o.edgeType, targets: 'zipf', zipfExponent: o.zipfExponent, removeRatio: 0, propertyRatio: 0, seed: o.seed })) {
    if (op.op !== 'ADD_EDGE') throw new Error(`bench workload produced ${op.op}; expected only ADD_EDGE`);
    yield { src: op.src, dst: op.dst, properties: op.properties ?? {} };
  }
}

/** What was published, in publish order: enough to rebuild every row the fan-out writes. */
export class PublishedEdges {
  readonly edges: BenchEdge[] = [];
  readonly mutationIds: string[] = [];
  readonly eventTimes: bigint[] = [];
  add(edge: BenchEdge, mutationId: string, eventTime: bigint): number {
    this.edges.push(edge);
    this.mutationIds.push(mutationId);
    this.eventTimes.push(eventTime);
    return this.edges.length - 1;
  }
  get length(): number {
    return this.edges.length;
  }

  /**
   * Whether a later ADD of the same edge (a newer event time) superseded event `i`: the exact
   * index then holds only the newer entry, so event i's `*_recent` rows are gone by design.
   */
  superseded(i: number): boolean {
    if (this.newest === undefined) {
      this.newest = new Map();
      this.edges.forEach((e, j) => {
        const key = `${e.src}\u0000${e.dst}`;
        const t = this.newest?.get(key);
        if (t === undefined || (this.eventTimes[j] as bigint) > t) this.newest?.set(key, this.eventTimes[j] as bigint);
      });
    }
    const e = this.edges[i] as BenchEdge;
    return (this.newest.get(`${e.src}\u0000${e.dst}`) as bigint) > (this.eventTimes[i] as bigint);
  }
  private newest: Map<string, bigint> | undefined;
}

/** One cell the fan-out writes: namespace (table), partition id, clustering key, value, at write time = event time. */
export interface Row {
  readonly table: string;
  readonly id: string;
  readonly key: Buffer;
  readonly value: Buffer;
  readonly writeTime: bigint;
}

const buf = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/** The ADD_EDGE event the producer SDK publishes for `edge` (what the fan-out and a raw writer both work from). */
export function addEdgeEvent(edgeType: string, edge: BenchEdge, mutationId: string, time: bigint): EdgeMutation {
  return { mutation_id: mutationId, op: EdgeOp.ADD_EDGE, edge_type: edgeType, src: edge.src, dst: edge.dst, event_time: time, properties: { ...edge.properties }, property_keys: [] };
}

/**
 * The rows an ADD_EDGE a→b at time T fans out to when no link and no node tombstone is visible:
 * taken from the real fan-out processor (pure; bench/shared/fanOutWaves), so the raw ceiling writes
 * exactly the cells the pipeline writes — links both ways, both recent-index entries and
 * one props row per property (docs/architecture.md §5). Degree intents and marks are the count
 * projection's bookkeeping, not rows of the answer (bench/ingest/README.md, "Rows").
 */
export function rowsOfAddEdge(edgeType: string, edge: BenchEdge, mutationId: string, time: bigint): Row[] {
  const tables = new Set(benchTables(edgeType));
  return fanOutWaves(addEdgeEvent(edgeType, edge, mutationId, time), undefined).flat().filter((m) => tables.has(m.namespace)).flatMap((m) => {
    if (m.clear === true || m.deletions.length > 0) throw new Error(`fan-out wrote a deletion/clear for a plain ADD_EDGE: ${m.namespace}`);
    return m.additions.map((a) => ({ table: m.namespace, id: m.id, key: buf(a.key), value: buf(a.value), writeTime: m.writeTime }));
  });
}

/** Rows per event of this workload (4 link/index cells + one per property). */
export const rowsPerEdge = (edge: BenchEdge): number => 4 + Object.keys(edge.properties).length;

/** The tables the bench's rows go to. */
export const benchTables = (edgeType: string): string[] => [
  forwardLinkNamespace(edgeType),
  reverseLinkNamespace(edgeType),
  forwardRecentNamespace(edgeType),
  reverseRecentNamespace(edgeType),
  edgePropsNamespace(edgeType),
];

/** The first `limit` published ADD_EDGE events, in publish order (what a raw ceiling writes). */
export function* publishedEvents(edgeType: string, published: PublishedEdges, limit = published.length): Generator<EdgeMutation> {
  for (let i = 0; i < Math.min(limit, published.length); i++) yield addEdgeEvent(edgeType, published.edges[i]!, published.mutationIds[i]!, published.eventTimes[i]!);
}
