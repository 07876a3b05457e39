import { createRandom } from '../../../cli/workload/createRandom.ts';
import { syntheticGraph, userId, type WorkloadOp } from '../../../cli/workload/syntheticGraph.ts';
import { EdgeOp, type EdgeMutation } from '../../../schemas/generated/EdgeMutation.ts';

export interface SyntheticMutationsOptions {
  readonly events: number;
  readonly users: number;
  readonly seed: number;
  /** Event time of the first event, µs; later events step by `stepMicros`. */
  readonly baseMicros: bigint;
  readonly stepMicros?: bigint;
  /** Each event time moves forward by up to this many µs (so neighbours arrive out of time order and ties happen). */
  readonly jitterMicros?: number;
  /** Share of events that are a REMOVE_NODE of a uniformly drawn user. */
  readonly removeNodeRatio?: number;
  /** Share of events that delete properties of an earlier edge (half of them clear its bag). */
  readonly removePropertiesRatio?: number;
  /** Share of the synthetic events that use the second edge type `likes` (the rest `follows`). */
  readonly likesRatio?: number;
  /** Prefix of every mutation id. */
  readonly idPrefix?: string;
}

/**
 * A reproducible ingest for crash and load tests, as explicit EdgeMutations
 * (ids and event times fixed, so applyLww can model it): the synthetic social
 * graph of cli/workload/syntheticGraph (Zipf "follows" with unfollows and
 * property updates; a second generator for "likes"), with REMOVE_NODEs and
 * property deletes / bag clears of earlier edges mixed in. Event times
 * increase by `stepMicros` per event plus a random jitter, so close
 * neighbours are out of time order.
 */
export function syntheticMutations(o: SyntheticMutationsOptions): EdgeMutation[] {
  const random = createRandom(o.seed);
  const step = o.stepMicros ?? 100n;
  const jitter = o.jitterMicros ?? 1_000;
  const removeNodeRatio = o.removeNodeRatio ?? 0.002;
  const removePropertiesRatio = o.removePropertiesRatio ?? 0.01;
  const likesRatio = o.likesRatio ?? 0.2;
  const idPrefix = o.idPrefix ?? 'syn';
  const common = { users: o.users, targets: 'zipf' as const, removeRatio: 0.08, propertyRatio: 0.08 };
  const follows = syntheticGraph({ ...common, events: o.events, edgeType: 'follows', seed: o.seed });
  const likes = syntheticGraph({ ...common, events: o.events, edgeType: 'likes', targets: 'uniform', seed: o.seed + 1 });
  const edges: WorkloadOp[] = [];
  const out: EdgeMutation[] = [];
  for (let i = 0; out.length < o.events; i++) {
    const base = { mutation_id: `${idPrefix}-${i}`, event_time: o.baseMicros + BigInt(i) * step + BigInt(Math.floor(random() * jitter)), properties: {}, property_keys: [] };
    const r = random();
    const earlier = edges.length > 0 ? edges[Math.floor(random() * edges.length)] : undefined;
    if (r < removeNodeRatio) {
      out.push({ ...base, op: EdgeOp.REMOVE_NODE, edge_type: '', src: userId(Math.floor(random() * o.users)), dst: '' });
    } else if (earlier && r < removeNodeRatio + removePropertiesRatio) {
      const keys = random() < 0.5 ? [] : ['notify'];
      out.push({ ...base, op: EdgeOp.REMOVE_PROPERTIES, edge_type: earlier.type, src: earlier.src, dst: earlier.dst, property_keys: keys });
    } else {
      const op = (random() < likesRatio ? likes : follows).next().value as WorkloadOp;
      if (op.op === 'ADD_EDGE' && edges.length < 20_000) edges.push(op);
      out.push({ ...base, op: op.op, edge_type: op.type, src: op.src, dst: op.dst, properties: 'properties' in op ? (op.properties ?? {}) : {} });
    }
  }
  return out;
}
