import pLimit from 'p-limit';
import { decodeLinkValue, decodeVertexKey, LinkState, linkNamespace } from '../sinks/namespaces/index.ts';
import type { Traversal, TraversalHop, TraversalHopResult } from './EdgeReader.ts';
import { sampleOf, type ReadContext } from './ReadContext.ts';

export interface TraversalPlan {
  readonly perHopCap: number;
  readonly concurrency: number;
  readonly pageSize: number;
}

/**
 * Breadth-first expansion, one hop at a time: the vertices first reached at a
 * hop are the next hop's frontier, and a vertex reached before (the start
 * included) is never reached again. Hops read the link namespaces in peer
 * order (no index validation needed) and keep ACTIVE links.
 */
export async function traverseHops(ctx: ReadContext, start: string, hops: readonly TraversalHop[], plan: TraversalPlan): Promise<Traversal> {
  const visited = new Set([start]);
  const results: TraversalHopResult[] = [];
  let frontier: readonly string[] = [start];
  for (const hop of hops) {
    const result = frontier.length === 0 ? { vertices: [], truncated: false } : await expandHop(ctx, frontier, hop, visited, plan);
    results.push(result);
    frontier = result.vertices;
  }
  return { hops: results, truncated: results.some((h) => h.truncated) };
}

/**
 * One hop: frontier vertices are expanded `concurrency` at a time, each paged
 * until its links are exhausted or the hop holds `perHopCap` new vertices.
 * From then on no page is requested and no further vertex is started; pages
 * already in flight are read but add nothing. Which vertices make the cap
 * depends on completion order. The hop is truncated when it stopped with some
 * frontier vertex's links not read to the end.
 */
async function expandHop(ctx: ReadContext, frontier: readonly string[], hop: TraversalHop, visited: Set<string>, plan: TraversalPlan): Promise<TraversalHopResult> {
  const namespace = linkNamespace(hop.type, hop.direction);
  const found: string[] = [];
  const full = () => found.length >= plan.perHopCap;
  let completed = 0;

  const expand = async (vertex: string): Promise<void> => {
    let after: Uint8Array | undefined;
    while (!full()) {
      const page = await ctx.partitions.page(namespace, vertex, { limit: plan.pageSize, ...(after === undefined ? {} : { after }) });
      let consumed = 0;
      let taken = 0;
      for (const cell of page.cells) {
        if (full()) break;
        consumed++;
        if (decodeLinkValue(cell.value).state !== LinkState.ACTIVE) continue;
        const peer = decodeVertexKey(cell.key);
        if (visited.has(peer)) continue;
        visited.add(peer);
        found.push(peer);
        taken++;
      }
      ctx.counters.record(namespace, vertex, sampleOf(page.cells, taken));
      if (consumed < page.cells.length) return;
      if (page.exhausted) {
        completed++;
        return;
      }
      if (page.cells.length === 0) throw new Error(`PartitionReader returned an empty page of ${namespace}[${vertex}] that is not exhausted`);
      after = page.cells[page.cells.length - 1]!.key;
    }
  };

  const limit = pLimit(plan.concurrency);
  // No clearQueue on reaching the cap: discarded tasks would never settle. Queued tasks see `full` and return.
  await Promise.all(frontier.map((vertex) => limit(() => (full() ? undefined : expand(vertex)))));
  return { vertices: found, truncated: completed < frontier.length };
}
