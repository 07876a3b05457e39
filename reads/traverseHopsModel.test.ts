import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultEdgestreamConfig } from '../schemas/config/edgestreamConfig.ts';
import { createMemoryStore } from '../sinks/memory/index.ts';
import { bucketOfKey, edgestreamNamespaces, encodeLinkValue, encodeVertexKey, LinkState, linkNamespace, splitBucketId, splitNamespace } from '../sinks/namespaces/index.ts';
import type { TwoLevelMapStore } from '../sinks/store/index.ts';
import { createWideRowRepository } from '../sinks/wide/index.ts';
import { createEdgeReader } from './createEdgeReader.ts';
import { createServingPartitions } from './split/createServingPartitions.ts';
import { BATCH_IDS, BATCH_PAGE_CELLS } from './traverseHops.ts';

const config = defaultEdgestreamConfig();
const OUT = linkNamespace('follows', 'out');
const SPLIT_LAYOUT = { strategy: 'hash', buckets: 3 } as const;

interface Vertex {
  /** Links to other vertices; large ones need more than a batch's first page. */
  readonly degree: number;
  /** Every `removedEvery`-th link is REMOVED (0: none). */
  readonly removedEvery: number;
  /** Served from a COMPLETED hash split, and absent from the original, so a read of the original would miss its links. */
  readonly split: boolean;
}

type Graph = Map<string, { peer: string; active: boolean }[]>;

/** v0 follows v1..vN; vi follows other v's and x's, picked by a seeded walk. */
function graphOf(vertices: readonly Vertex[], seed: number): Graph {
  const n = vertices.length + 1;
  const graph: Graph = new Map([['v0', Array.from({ length: vertices.length }, (_, i) => ({ peer: `v${i + 1}`, active: true }))]]);
  vertices.forEach((v, i) => {
    const peers = new Set<string>();
    for (let j = 0; peers.size < v.degree; j++) peers.add(j % 2 === 0 ? `v${(i * 31 + j * 17 + seed) % n}` : `x${(i * 7 + j + seed) % 400}`);
    graph.set(`v${i + 1}`, [...peers].map((peer, j) => ({ peer, active: v.removedEvery === 0 || j % v.removedEvery !== 0 })));
  });
  return graph;
}

async function write(store: TwoLevelMapStore, graph: Graph, split: ReadonlySet<string>): Promise<void> {
  const repository = createWideRowRepository(store);
  for (const [vertex, links] of graph) {
    const cells = links.map(({ peer, active }, j) => ({ key: encodeVertexKey(peer), value: encodeLinkValue({ state: active ? LinkState.ACTIVE : LinkState.REMOVED, time: BigInt(1_000 + j), mutationId: `m${j}` }) }));
    if (!split.has(vertex)) {
      await store.mutateMany([{ namespace: OUT, id: vertex, writeTime: 1n, deletions: [], additions: cells }]);
      continue;
    }
    await store.mutateMany(cells.map((cell) => ({ namespace: splitNamespace(OUT), id: splitBucketId(vertex, 1, bucketOfKey(SPLIT_LAYOUT, cell.key)), writeTime: 1n, deletions: [], additions: [cell] })));
    await repository.put({ namespace: OUT, partitionId: vertex, status: 'COMPLETED', generation: 1, attempts: 1, splitNamespace: splitNamespace(OUT), ...SPLIT_LAYOUT, boundaries: [], rows: cells.length, bytes: 0, checksum: '', updatedAt: 1 });
  }
}

/** Breadth-first search over the graph, one vertex at a time: per hop, the vertices first reached there. */
function modelBfs(graph: Graph, start: string, hops: number): string[][] {
  const visited = new Set([start]);
  const result: string[][] = [];
  let frontier = [start];
  for (let h = 0; h < hops; h++) {
    const next = frontier.flatMap((v) => (graph.get(v) ?? []).filter((l) => l.active && !visited.has(l.peer)).map((l) => (visited.add(l.peer), l.peer)));
    result.push(next);
    frontier = next;
  }
  return result;
}

const vertex: fc.Arbitrary<Vertex> = fc.record({
  degree: fc.oneof({ arbitrary: fc.nat(6), weight: 9 }, { arbitrary: fc.integer({ min: 120, max: 200 }), weight: 1 }),
  removedEvery: fc.nat(4),
  split: fc.oneof({ arbitrary: fc.constant(false), weight: 12 }, { arbitrary: fc.constant(true), weight: 1 }),
});

describe('traverse against a per-vertex breadth-first search', () => {
  it('reaches the same vertices hop by hop over batches of small vertices, large ones continued on their own, and COMPLETED splits', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(vertex, { minLength: 1, maxLength: 160 }), fc.nat(1_000), fc.integer({ min: 1, max: 300 }), async (vertices, seed, pageSize) => {
        const store = createMemoryStore({ namespaces: edgestreamNamespaces(config) });
        const graph = graphOf(vertices, seed);
        await write(store, graph, new Set(vertices.flatMap((v, i) => (v.split ? [`v${i + 1}`] : []))));
        const serving = createServingPartitions(store, config);
        await serving.start();
        try {
          const reader = createEdgeReader({ partitions: serving.partitions, config });
          const result = await reader.traverse('v0', [{ type: 'follows', direction: 'out' }, { type: 'follows', direction: 'out' }], { perHopCap: 100_000, pageSize });
          expect(result.hops.map((h) => [...h.vertices].sort())).toEqual(modelBfs(graph, 'v0', 2).map((level) => level.sort()));
          expect(result.partial).toBeUndefined();
          // one query per batch, then per vertex only the pages past its first (a split may also cross empty buckets)
          const frontier = result.hops[0]!.vertices;
          const first = Math.min(pageSize, BATCH_PAGE_CELLS);
          const continuations = frontier.map((v) => Math.ceil(Math.max(0, (graph.get(v)?.length ?? 0) - first) / pageSize) + (vertices[Number(v.slice(1)) - 1]?.split ? SPLIT_LAYOUT.buckets : 0));
          const batches = frontier.length > 1 ? Math.ceil(frontier.length / BATCH_IDS) : 1;
          expect(result.hops[1]!.stats.queries).toBeLessThanOrEqual(batches + continuations.reduce((a, b) => a + b, 0));
        } finally {
          serving.stop();
        }
      }),
      { numRuns: 30 },
    );
  });
});
