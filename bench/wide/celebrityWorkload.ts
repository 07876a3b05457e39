import { EdgeOp, type EdgeMutation } from '../../schemas/index.ts';
import { LinkState, type LinkValue } from '../../sinks/namespaces/index.ts';
import { mix32, scrambledId } from '../../cli/workload/scrambledId.ts';

/**
 * The two celebrities of the bench, as the edge events that made them:
 * - A: `links` followers, each one ADD_EDGE, none removed;
 * - B: `links` ADD_EDGEs, then an unfollow wave: a REMOVE_EDGE for a
 *   pseudo-random `removeRatio` share of them (uniform over the follows, seeded),
 *   each after every follow.
 * Everything is a pure function of (celebrity, index), so nothing is kept in
 * memory and the bench knows, for a removal, the forward link the fan-out
 * would have read (the follow's ACTIVE value at its time).
 */
export interface Celebrity {
  readonly label: 'A' | 'B';
  readonly id: string;
  readonly edgeType: string;
  readonly links: number;
  readonly removeRatio: number;
  readonly seed: number;
  /** Event time of follow 0, µs; follow i is at baseTime + i·STEP. */
  readonly baseTime: bigint;
}

/** 1 ms between consecutive events of one celebrity. */
const STEP = 1_000n;

/** Another hash than isRemoved's, so the removed followers are not the ones first in key order. */
const ID_SALT = 1_000_003;

/** Follower i: ids in key order unrelated to follow order, as in a real graph (cli/workload/scrambledId). */
export const followerOf = (c: Celebrity, i: number): string => scrambledId(`fan-${c.label.toLowerCase()}`, i, c.seed + ID_SALT);
export const followTime = (c: Celebrity, i: number): bigint => c.baseTime + BigInt(i) * STEP;
/** Every unfollow comes after every follow, in follow order. */
export const unfollowTime = (c: Celebrity, i: number): bigint => c.baseTime + BigInt(c.links + i) * STEP;

/** Whether follow i of `c` is later removed (a seeded 32-bit hash of i, uniform). */
export function isRemoved(c: Celebrity, i: number): boolean {
  return c.removeRatio > 0 && mix32(i, c.seed) / 2 ** 32 < c.removeRatio;
}

export function countRemoved(c: Celebrity): number {
  let n = 0;
  for (let i = 0; i < c.links; i++) if (isRemoved(c, i)) n++;
  return n;
}

export function followEvent(c: Celebrity, i: number): EdgeMutation {
  return {
    mutation_id: `wide-${c.label.toLowerCase()}-follow-${i}`,
    op: EdgeOp.ADD_EDGE,
    edge_type: c.edgeType,
    src: followerOf(c, i),
    dst: c.id,
    event_time: followTime(c, i),
    properties: {},
    property_keys: [],
  };
}

/** The REMOVE_EDGE of follow i, and the forward link `T_out[follower][celebrity]` it reads (the follow, still ACTIVE). */
export function unfollowEvent(c: Celebrity, i: number): { event: EdgeMutation; forwardLink: LinkValue } {
  const follow = followEvent(c, i);
  return {
    event: { ...follow, mutation_id: `wide-${c.label.toLowerCase()}-unfollow-${i}`, op: EdgeOp.REMOVE_EDGE, event_time: unfollowTime(c, i) },
    forwardLink: { state: LinkState.ACTIVE, time: follow.event_time, mutationId: follow.mutation_id },
  };
}
