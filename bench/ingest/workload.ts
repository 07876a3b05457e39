import { syntheticGraph } from '../../cli/workload/syntheticGraph.ts';
import { createFanOutProcessor } from '../../processors/index.ts';
import { EdgeOp, type EdgeMutation } from '../../schemas/index.ts';
import {
  edgePropsId,
  edgePropsNamespace,
  encodeLinkValue,
  encodePropertyNameKey,
  encodePropertyValue,
  encodeRecentKey,
  encodeVertexKey,
  forwardLinkNamespace,
  forwardRecentNamespace,
  LinkState,
  reverseLinkNamespace,
  reverseRecentNamespace,
  type PropertyValue,
} from '../../sinks/namespaces/index.ts';

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

/**
 * The rows an ADD_EDGE a→b at time T fans out to when no node tombstone is
 * visible (docs/architecture.md §5): T_out[a][b] and T_in[b][a] = ACTIVE link
 * value, both recent-index entries (value: the mutation id), and one T_props
 * row per property. Built with the same codecs the processor uses;
 * `checkRowsMatchFanOut` proves they are byte-identical.
 */
export function rowsOfAddEdge(edgeType: string, edge: BenchEdge, mutationId: string, time: bigint): Row[] {
  const link = buf(encodeLinkValue({ state: LinkState.ACTIVE, time, mutationId }));
  const recentValue = Buffer.from(mutationId, 'utf8');
  const rows: Row[] = [
    { table: forwardLinkNamespace(edgeType), id: edge.src, key: buf(encodeVertexKey(edge.dst)), value: link, writeTime: time },
    { table: reverseLinkNamespace(edgeType), id: edge.dst, key: buf(encodeVertexKey(edge.src)), value: link, writeTime: time },
    { table: forwardRecentNamespace(edgeType), id: edge.src, key: buf(encodeRecentKey(time, edge.dst)), value: recentValue, writeTime: time },
    { table: reverseRecentNamespace(edgeType), id: edge.dst, key: buf(encodeRecentKey(time, edge.src)), value: recentValue, writeTime: time },
  ];
  const propsId = edgePropsId(edge.src, edge.dst);
  for (const [name, value] of Object.entries(edge.properties)) {
    rows.push({ table: edgePropsNamespace(edgeType), id: propsId, key: buf(encodePropertyNameKey(name)), value: buf(encodePropertyValue(value as PropertyValue)), writeTime: time });
  }
  return rows;
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

/**
 * Fails unless `rowsOfAddEdge` yields exactly the cells the real fan-out
 * processor writes for the same event (so the raw ceiling writes the same
 * rows as the pipeline).
 */
export function checkRowsMatchFanOut(edgeType: string, sample: BenchEdge): void {
  const time = 1_700_000_000_000_000n;
  const event: EdgeMutation = {
    mutation_id: 'bench-check-0001',
    op: EdgeOp.ADD_EDGE,
    edge_type: edgeType,
    src: sample.src,
    dst: sample.dst,
    event_time: time,
    properties: { ...sample.properties },
    property_keys: [],
  };
  const output = createFanOutProcessor({ edgeTypes: [{ name: edgeType }] }).process(event, { get: () => undefined }, { wallClockMicros: time });
  const render = (table: string, id: string, key: Uint8Array, value: Uint8Array, t: bigint) =>
    `${table}|${id}|${buf(key).toString('hex')}|${buf(value).toString('hex')}|${t}`;
  const processor = output.writes
    .flatMap((m) => {
      if ((m as { clear?: unknown }).clear === true || m.deletions.length > 0) throw new Error(`fan-out wrote a deletion/clear for a plain ADD_EDGE: ${m.namespace}`);
      return m.additions.map((a) => render(m.namespace, m.id, a.key, a.value, m.writeTime));
    })
    .sort();
  const ours = rowsOfAddEdge(edgeType, sample, event.mutation_id, time)
    .map((r) => render(r.table, r.id, r.key, r.value, r.writeTime))
    .sort();
  if (JSON.stringify(processor) !== JSON.stringify(ours)) {
    throw new Error(`bench rows differ from the fan-out's writes:\n  fan-out: ${processor.join('\n           ')}\n  bench:   ${ours.join('\n           ')}`);
  }
}
