import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRandom } from '../../cli/workload/createRandom.ts';
import { createEdgeReader, createStorePartitionReader, type EdgeReader, type TraversalHop } from '../../reads/index.ts';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { BATCH_IDS } from '../../reads/traverseHops.ts';
import type { LinkDirection } from '../../sinks/namespaces/index.ts';
import type { EdgestreamEnv } from '../support/edgestreamEnv.ts';
import { publishGraph, type PublishedGraph } from '../support/publishGraph.ts';
import { applyLww, modelKey, type ModelGraph } from '../support/model/applyLww.ts';

/**
 * Traversal on the real stack: a seeded random graph (follows and likes, with
 * re-adds and removals) and a celebrity with 1 500 followers, published through
 * the producer SDK and fanned out into Cassandra by the real pipeline, then
 * traversed through createEdgeReader over the Cassandra store and compared
 * with a breadth-first search over the reference model (applyLww).
 */
describe('traversal on Kafka + Cassandra', () => {
  let env: EdgestreamEnv;
  const rand = randomBytes(3).toString('hex');
  const base = BigInt(Date.now() - 3_600_000) * 1000n;
  const v = (i: number) => `v${i}-${rand}`;
  const celeb = `celeb-${rand}`;
  let seq = 0;
  const mutation = (op: 'ADD_EDGE' | 'REMOVE_EDGE', edgeType: string, src: string, dst: string): EdgeMutation => ({
    mutation_id: `${rand}-${++seq}`,
    op,
    edge_type: edgeType,
    src,
    dst,
    event_time: base + BigInt(seq),
    properties: {},
    property_keys: [],
  });

  const random = createRandom(20_261_124);
  const pick = (n: number) => Math.floor(random() * n);
  const events: EdgeMutation[] = [];
  for (let i = 0; i < 700; i++) {
    const type = random() < 0.7 ? 'follows' : 'likes';
    events.push(mutation(random() < 0.85 ? 'ADD_EDGE' : 'REMOVE_EDGE', type, v(pick(80)), v(pick(80))));
  }
  for (let i = 0; i < 1_500; i++) events.push(mutation('ADD_EDGE', 'follows', `fan${i}-${rand}`, celeb));
  events.push(mutation('ADD_EDGE', 'follows', v(0), celeb));
  const model = applyLww(events);

  let graph: PublishedGraph | undefined;
  beforeAll(async () => {
    graph = await publishGraph('traversal', events);
    env = graph.env;
  }, 300_000);

  afterAll(async () => {
    await graph?.close();
  });

  const reader = (): EdgeReader => createEdgeReader({ partitions: createStorePartitionReader(env.store), config: env.config });

  it('a 2-hop traversal reaches exactly the vertices a BFS over the model reaches, hop by hop', async () => {
    const r = reader();
    const plans: TraversalHop[][] = [
      [{ type: 'follows', direction: 'out' }, { type: 'follows', direction: 'out' }],
      [{ type: 'follows', direction: 'in' }, { type: 'likes', direction: 'out' }],
      [{ type: 'likes', direction: 'out' }, { type: 'follows', direction: 'in' }],
    ];
    let nonTrivial = 0;
    for (const start of [0, 1, 2, 3, 5, 8, 13].map(v)) {
      for (const hops of plans) {
        const result = await r.traverse(start, hops, { perHopCap: 100_000, concurrency: 4, pageSize: 7 });
        const expected = modelBfs(model, start, hops);
        expect(result.hops.map((h) => [...h.vertices].sort())).toEqual(expected.map((s) => [...s].sort()));
        expect(result.partial).toBeUndefined();
        expect(result.truncated).toBe(false);
        result.hops.forEach((h, i) => {
          const frontier = i === 0 ? 1 : expected[i - 1]!.length;
          expect(h.stats.frontier).toBe(frontier);
          // a frontier of many vertices is read in batches of BATCH_IDS (one query each), one vertex on its own
          expect(h.stats.queries).toBeGreaterThanOrEqual(Math.ceil(frontier / BATCH_IDS));
          expect(h.stats.replicaGroups).toBe(frontier === 0 ? 0 : 1); // one node: one replica set
        });
        if (expected[1]!.length > 0) nonTrivial++;
      }
    }
    expect(nonTrivial).toBeGreaterThan(5);
  });

  it('the Cassandra store groups partition ids by replica set from the token map', () => {
    const ids = Array.from({ length: 50 }, (_, i) => v(i));
    const groups = env.store.replicaGroups(ids);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.replicas).toMatch(/^\d+\.\d+\.\d+\.\d+:\d+$/);
    expect(groups[0]!.ids).toEqual(ids);
  });

  it('stops at the read budget on the celebrity and says so, returning only real followers', async () => {
    const followers = new Set(neighbours(model, 'follows', 'in', celeb));
    expect(followers.size).toBe(1_501);
    const result = await reader().traverse(celeb, [{ type: 'follows', direction: 'in' }, { type: 'follows', direction: 'out' }], { perHopCap: 100_000, pageSize: 100, maxRows: 250 });
    expect(result.partial).toEqual({ reason: 'read_budget', hop: 0 });
    expect(result.hops).toHaveLength(1);
    expect(result.stats.rowsRead).toBeLessThanOrEqual(250);
    expect(result.hops[0]!.vertices.length).toBe(result.stats.rowsRead);
    expect(result.hops[0]!.vertices.every((f) => followers.has(f))).toBe(true);
  });

  it('a deadline cuts the celebrity short; a hop cap is flagged and the next hop still runs', async () => {
    const cut = await reader().traverse(celeb, [{ type: 'follows', direction: 'in' }], { perHopCap: 100_000, pageSize: 5, concurrency: 1, deadlineMs: 1 });
    expect(cut.partial).toEqual({ reason: 'deadline', hop: 0 });
    expect(cut.hops[0]!.vertices.length).toBeLessThan(1_501);

    const capped = await reader().traverse(celeb, [{ type: 'follows', direction: 'in', cap: 40 }, { type: 'follows', direction: 'out' }], { pageSize: 100 });
    expect(capped.partial).toEqual({ reason: 'hop_cap', hop: 0 });
    expect(capped.hops[0]!.vertices).toHaveLength(40);
    expect(capped.hops).toHaveLength(2);
    console.log(`celebrity 2-hop, hop 1 capped at 40: ${capped.hops.map((h, i) => `hop ${i + 1}: ${h.stats.queries} queries, ${h.stats.rowsRead} rows, frontier ${h.stats.frontier}`).join('; ')}`);
    // the fans follow only the celebrity (visited); v0 follows others too
    const expectedSecond = capped.hops[0]!.vertices.flatMap((f) => neighbours(model, 'follows', 'out', f)).filter((x) => x !== celeb);
    expect([...capped.hops[1]!.vertices].sort()).toEqual([...new Set(expectedSecond)].filter((x) => !capped.hops[0]!.vertices.includes(x)).sort());
  });
});

function neighbours(model: ModelGraph, type: string, direction: LinkDirection, vertex: string): string[] {
  return (model.newestFirst.get(modelKey(type, direction, vertex)) ?? []).map((n) => n.peer);
}

/** Breadth-first search over the model: per hop, the vertices first reached there. */
function modelBfs(model: ModelGraph, start: string, hops: readonly TraversalHop[]): string[][] {
  const visited = new Set([start]);
  const result: string[][] = [];
  let frontier = [start];
  for (const hop of hops) {
    const next: string[] = [];
    for (const vertex of frontier) {
      for (const peer of neighbours(model, hop.type, hop.direction, vertex)) {
        if (visited.has(peer)) continue;
        visited.add(peer);
        next.push(peer);
      }
    }
    result.push(next);
    frontier = next;
  }
  return result;
}
