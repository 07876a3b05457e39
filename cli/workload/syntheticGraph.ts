import { createRandom } from './createRandom.ts';
import { createZipfSampler } from './createZipfSampler.ts';

/** One mutation request for the producer SDK (ids and times are left to the caller or the SDK). */
export type WorkloadOp =
  | { readonly op: 'ADD_EDGE'; readonly type: string; readonly src: string; readonly dst: string; readonly properties?: Record<string, string | bigint | boolean> }
  | { readonly op: 'REMOVE_EDGE'; readonly type: string; readonly src: string; readonly dst: string }
  | { readonly op: 'SET_PROPERTIES'; readonly type: string; readonly src: string; readonly dst: string; readonly properties: Record<string, string | bigint | boolean> };

export interface SyntheticGraphOptions {
  readonly events: number;
  readonly users: number;
  readonly edgeType: string;
  /** How targets are drawn: `uniform`, or `zipf` (a few celebrities get most follows). */
  readonly targets: 'uniform' | 'zipf';
  readonly zipfExponent?: number;
  /** Share of events that unfollow a previously followed target. */
  readonly removeRatio?: number;
  /** Share of events that set a property on a previously added edge. */
  readonly propertyRatio?: number;
  readonly seed?: number;
}

export const userId = (rank: number): string => `user-${rank}`;

/**
 * A deterministic synthetic social graph: "follows" from uniformly drawn sources to
 * uniform or Zipf-drawn targets (rank 0 = `user-0`, the celebrity), with unfollows and
 * property updates of earlier edges mixed in.
 */
export function* syntheticGraph(o: SyntheticGraphOptions): Generator<WorkloadOp> {
  const random = createRandom(o.seed ?? 1);
  const target = o.targets === 'zipf' ? createZipfSampler(o.users, o.zipfExponent ?? 1.1, random) : () => Math.floor(random() * o.users);
  const removeRatio = o.removeRatio ?? 0;
  const propertyRatio = o.propertyRatio ?? 0;
  const recent: [string, string][] = [];
  for (let i = 0; i < o.events; i++) {
    const r = random();
    const earlier = recent.length > 0 ? recent[Math.floor(random() * recent.length)] : undefined;
    if (earlier && r < removeRatio) {
      yield { op: 'REMOVE_EDGE', type: o.edgeType, src: earlier[0], dst: earlier[1] };
    } else if (earlier && r < removeRatio + propertyRatio) {
      yield { op: 'SET_PROPERTIES', type: o.edgeType, src: earlier[0], dst: earlier[1], properties: { notify: random() < 0.5 } };
    } else {
      let src = Math.floor(random() * o.users);
      const dst = target();
      if (src === dst) src = (src + 1) % o.users;
      const edge: [string, string] = [userId(src), userId(dst)];
      if (recent.length < 10_000) recent.push(edge);
      else recent[Math.floor(random() * recent.length)] = edge;
      yield { op: 'ADD_EDGE', type: o.edgeType, src: edge[0], dst: edge[1], properties: { via: 'synthetic' } };
    }
  }
}
