import { createRandom } from '../../cli/workload/createRandom.ts';
import { createZipfSampler } from '../../cli/workload/createZipfSampler.ts';
import { EdgeOp, type EdgeMutation } from '../../schemas/index.ts';
import { scrambledId } from '../../cli/workload/scrambledId.ts';

/**
 * The social graph the traversal runs on: user u (`zipfUser(u)`) follows
 * `followsPerUser` distinct others drawn by Zipf rank (rank 0 the most
 * followed), so out-degrees are equal and in-degrees Zipf-distributed.
 * Deterministic for a seed; streamed, nothing kept but one user's follows.
 */
export interface ZipfGraph {
  readonly edgeType: string;
  readonly users: number;
  readonly followsPerUser: number;
  readonly exponent: number;
  readonly seed: number;
  /** Event time of the first follow, µs; follows are 1 ms apart. */
  readonly baseTime: bigint;
}

/** User of Zipf rank `rank`: ids in key order unrelated to rank and follow order (cli/workload/scrambledId). */
export const zipfUser = (rank: number): string => scrambledId('zu', rank, 0);

export const zipfEdges = (g: ZipfGraph): number => g.users * g.followsPerUser;

export function* zipfFollowEvents(g: ZipfGraph): Generator<EdgeMutation> {
  const random = createRandom(g.seed);
  const target = createZipfSampler(g.users, g.exponent, random);
  let n = 0;
  for (let u = 0; u < g.users; u++) {
    const follows = new Set<number>();
    while (follows.size < g.followsPerUser) {
      const t = target();
      if (t !== u) follows.add(t);
    }
    for (const t of follows) {
      yield {
        mutation_id: `zipf-${u}-${t}`,
        op: EdgeOp.ADD_EDGE,
        edge_type: g.edgeType,
        src: zipfUser(u),
        dst: zipfUser(t),
        event_time: g.baseTime + BigInt(n++) * 1_000n,
        properties: {},
        property_keys: [],
      };
    }
  }
}

/** `count` traversal start vertices drawn by Zipf rank from another seed than the graph (popular users come up often). */
export function zipfStarts(g: ZipfGraph, count: number): string[] {
  const sample = createZipfSampler(g.users, g.exponent, createRandom(g.seed + 7_919));
  return Array.from({ length: count }, () => zipfUser(sample()));
}
