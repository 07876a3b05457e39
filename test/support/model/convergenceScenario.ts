import fc from 'fast-check';
import type { EdgeMutation } from '../../../schemas/generated/EdgeMutation.ts';
import { edgeMutationArbitrary, MODEL_VERTICES } from './edgeMutationArbitrary.ts';

/**
 * A scenario for the end-to-end convergence test: `events` (what the model
 * sees) and `arrivals` (what is published: every event once, some again, in a
 * shuffled order). Events come from edgeMutationArbitrary (tiny graph, every
 * op, colliding ids and values); their event times are redrawn so that half
 * keep the tie-heavy 1..6 range and the rest spread over 1..40, which makes
 * removes and re-adds at distinct times common as well as exact ties.
 */
export interface ConvergenceScenario {
  readonly events: readonly EdgeMutation[];
  readonly arrivals: readonly EdgeMutation[];
}

const eventTime = fc.oneof(fc.bigInt({ min: 1n, max: 6n }), fc.bigInt({ min: 1n, max: 40n }));

export function convergenceScenarioArbitrary({ minEvents = 30, maxEvents = 80, maxDuplicates = 15, hotFollowers = 0 } = {}): fc.Arbitrary<ConvergenceScenario> {
  const event = fc.tuple(edgeMutationArbitrary, eventTime).map(([e, t]): EdgeMutation => ({ ...e, event_time: t }));
  const mixed = fc.array(event, { minLength: minEvents, maxLength: maxEvents });
  const withHot = hotFollowers === 0 ? mixed : fc.tuple(mixed, hotVertexEvents(hotFollowers)).chain(([a, b]) => fc.shuffledSubarray([...a, ...b], { minLength: a.length + b.length }));
  return withHot.chain((events) =>
    fc.record({
      events: fc.constant(events),
      arrivals: fc
        .array(fc.constantFrom(...events), { maxLength: maxDuplicates })
        .chain((dups) => fc.shuffledSubarray([...events, ...dups], { minLength: events.length + dups.length })),
    }),
  );
}

/**
 * Moves a scenario's events into their own corner of a shared store and onto
 * a real clock: every vertex id gets `tag` as a prefix (so runs sharing one
 * pipeline never touch each other's partitions), and event time t becomes
 * `baseMicros + t` (so the runtime's validation accepts it and ties stay ties),
 * and so does an edge time.
 */
export function scopeMutation(e: EdgeMutation, tag: string, baseMicros: bigint): EdgeMutation {
  return {
    ...e,
    src: `${tag}${e.src}`,
    dst: e.op === 'REMOVE_NODE' ? '' : `${tag}${e.dst}`,
    event_time: baseMicros + e.event_time,
    ...(e.edge_time == null ? {} : { edge_time: baseMicros + e.edge_time }),
  };
}

/** The vertices a scoped scenario can touch (with `hotFollowers`, the hot vertex's followers too). */
export const scopedVertices = (tag: string, hotFollowers = 0): string[] => [...MODEL_VERTICES, ...hotFollowerIds(hotFollowers)].map((v) => `${tag}${v}`);

const HOT_VERTEX = MODEL_VERTICES[0];
const hotFollowerIds = (n: number): string[] => Array.from({ length: n }, (_, i) => `h${i}`);

/**
 * A hot vertex: `n` followers of MODEL_VERTICES[0], each followed at a time in
 * 1..40 and, for about a third, unfollowed at another (before or after the follow).
 */
function hotVertexEvents(n: number): fc.Arbitrary<EdgeMutation[]> {
  const one = (follower: string, i: number) =>
    fc.tuple(fc.bigInt({ min: 1n, max: 40n }), fc.option(fc.bigInt({ min: 1n, max: 40n }), { freq: 2 })).map(([followAt, unfollowAt]) => {
      const follow: EdgeMutation = { mutation_id: `hot-f${i}`, op: 'ADD_EDGE', edge_type: 'follows', src: follower, dst: HOT_VERTEX, event_time: followAt, properties: {}, property_keys: [] };
      return unfollowAt === null ? [follow] : [follow, { ...follow, mutation_id: `hot-u${i}`, op: 'REMOVE_EDGE' as const, event_time: unfollowAt }];
    });
  return fc.tuple(...hotFollowerIds(n).map(one)).map((lists) => lists.flat());
}

/** One event per line, for a failure report that can be pasted into a unit test. */
export function describeMutations(events: readonly EdgeMutation[]): string {
  return events
    .map((e) => {
      const props = Object.entries(e.properties).map(([k, v]) => `${k}=${typeof v === 'bigint' ? `${v}n` : Buffer.isBuffer(v) ? `0x${v.toString('hex')}` : JSON.stringify(v)}`);
      const keys = e.op === 'REMOVE_PROPERTIES' ? ` keys=[${e.property_keys.join(',')}]` : '';
      const edge = `${e.edge_time == null ? '' : ` edge_time=${e.edge_time}`}${e.data == null ? '' : ` data=0x${e.data.toString('hex')}`}`;
      return `${e.op} ${e.edge_type} ${e.src}->${e.dst} @${e.event_time} ${e.mutation_id}${props.length ? ` {${props.join(', ')}}` : ''}${keys}${edge}`;
    })
    .join('\n');
}
