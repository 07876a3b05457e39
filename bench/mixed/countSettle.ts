import type cassandra from 'cassandra-driver';
import pLimit from 'p-limit';
import { mix32 } from '../../cli/workload/scrambledId.ts';
import { qualifiedTable } from '../../sinks/cassandra/schemaCql.ts';
import { DEGREES_NAMESPACE, decodeDegreeCount, encodeDegreesKey, forwardLinkNamespace } from '../../sinks/namespaces/index.ts';
import { countActiveLinks } from '../counts/rawCountBaseline.ts';
import type { createStatusLine } from '../ingest/progressLine.ts';
import { round } from '../ingest/stats.ts';

/** The 10 vertices with the most links, then distinct others drawn uniformly (seeded): `n` vertex ranks in all. */
export function sampleRanks(ids: number, n: number, seed: number): number[] {
  const picked = new Set<number>();
  for (let v = 0; v < Math.min(10, ids, n); v++) picked.add(v);
  for (let i = 0; picked.size < Math.min(n, ids); i++) picked.add(mix32(i, seed + 11) % ids);
  return [...picked];
}

export interface CountSettle {
  readonly sampled: number;
  /** Sampled vertices whose link partition (ACTIVE links of `<type>_out`) did not hold the links the bench published. */
  readonly linkCountMismatches: number;
  readonly settled: boolean;
  /** Drain (fan-out caught up) → every sampled degree equal to its link partition's count; or until the bench gave up. */
  readonly secondsAfterDrain: number;
  /** Sampled degrees still wrong when it ended (0 when settled), and the first few. */
  readonly wrongAtEnd: number;
  readonly examples: readonly { readonly vertex: string; readonly degree: string; readonly links: number }[];
}

/**
 * Count settle time after the load: the true out-degree of each sampled
 * vertex is the number of ACTIVE links in its `<type>_out` partition, read
 * with the raw driver once the fan-out has caught up (and checked against the
 * links published); then its `degrees` cell (what `count` and the degree
 * route answer) is read every `pollMs`, the vertices still wrong only, until
 * every one equals its truth or `timeoutMs` passed.
 */
export async function waitForCountsToSettle(o: {
  cql: cassandra.Client;
  keyspace: string;
  edgeType: string;
  vertices: readonly { readonly id: string; readonly published: number }[];
  drainedAt: number;
  timeoutMs: number;
  pollMs: number;
  status: ReturnType<typeof createStatusLine>;
  label: string;
}): Promise<CountSettle> {
  const limit = pLimit(32);
  const truth = new Map<string, number>();
  let linkCountMismatches = 0;
  await Promise.all(
    o.vertices.map((v) =>
      limit(async () => {
        const { active } = await countActiveLinks(o.cql, o.keyspace, forwardLinkNamespace(o.edgeType), v.id);
        truth.set(v.id, active);
        if (active !== v.published) linkCountMismatches++;
      }),
    ),
  );
  const degreeCql = `SELECT value FROM ${qualifiedTable(o.keyspace, DEGREES_NAMESPACE)} WHERE id = ? AND key = ?`;
  const key = Buffer.from(encodeDegreesKey(o.edgeType, 'out'));
  const degreeOf = async (id: string): Promise<bigint> => {
    const value = (await o.cql.execute(degreeCql, [id, key], { prepare: true })).first()?.['value'] as Buffer | undefined;
    return value === undefined ? 0n : decodeDegreeCount(value);
  };
  const wrong = new Map<string, bigint>(o.vertices.map((v) => [v.id, -1n]));
  for (;;) {
    await Promise.all(
      [...wrong.keys()].map((id) =>
        limit(async () => {
          const degree = await degreeOf(id);
          if (degree === BigInt(truth.get(id) ?? -1)) wrong.delete(id);
          else wrong.set(id, degree);
        }),
      ),
    );
    const waited = performance.now() - o.drainedAt;
    if (wrong.size === 0 || waited > o.timeoutMs) {
      o.status.done();
      return {
        sampled: o.vertices.length,
        linkCountMismatches,
        settled: wrong.size === 0,
        secondsAfterDrain: round(waited / 1000, 1),
        wrongAtEnd: wrong.size,
        examples: [...wrong].slice(0, 5).map(([vertex, degree]) => ({ vertex, degree: String(degree), links: truth.get(vertex) ?? -1 })),
      };
    }
    o.status.update(`${o.label}: ${wrong.size}/${o.vertices.length} sampled degrees still differ from their link partitions, ${(waited / 1000).toFixed(0)} s after the drain`);
    await new Promise((r) => setTimeout(r, o.pollMs));
  }
}
