import pLimit from 'p-limit';
import { decodeLinkValue, decodeVertexKey, LinkState, linkNamespace } from '../sinks/namespaces/index.ts';
import type { Traversal, TraversalHop, TraversalHopResult, TraversalPartial } from './EdgeReader.ts';
import type { ScanPosition } from './PartitionReader.ts';
import type { ReadBudget, StopReason } from './readBudget.ts';
import { sampleOf, type ReadContext } from './ReadContext.ts';

export interface TraversalPlan {
  /** New vertices per hop unless the hop sets its own `cap`. */
  readonly perHopCap: number;
  /** Frontier reads in flight per replica set. */
  readonly concurrency: number;
  /** Frontier reads in flight in all. */
  readonly maxInFlight: number;
  /** Link cells per page; default min(the hop's cap, the reader's largest page). */
  readonly pageSize: number | undefined;
}

/**
 * Breadth-first expansion, one hop at a time: the vertices first reached at a
 * hop are the next hop's frontier, and a vertex reached before (the start
 * included) is never reached again, so no partition is paged twice. Hops scan
 * the link namespaces in no promised order (`PartitionReader.scan`: peer order,
 * or bucket by bucket through a hash split; no index validation needed) and
 * keep ACTIVE links. Every page is claimed from `budget`; when it is spent, the
 * deadline passes or the caller aborts, the traversal returns what it has
 * with `partial` saying why, and the hops after it are not run.
 */
export async function traverseHops(ctx: ReadContext, start: string, hops: readonly TraversalHop[], plan: TraversalPlan, budget: ReadBudget): Promise<Traversal> {
  const visited = new Set([start]);
  const results: TraversalHopResult[] = [];
  let partial: TraversalPartial | undefined;
  let frontier: readonly string[] = [start];
  for (const [i, hop] of hops.entries()) {
    const stop = frontier.length === 0 ? undefined : budget.stopReason();
    if (stop !== undefined) {
      partial = { reason: stop, hop: i };
      break;
    }
    const cap = hop.cap ?? plan.perHopCap;
    const limits = { cap, concurrency: plan.concurrency, maxInFlight: plan.maxInFlight, pageSize: plan.pageSize ?? Math.min(cap, ctx.maxPageCells) };
    const outcome = await expandHop(ctx, frontier, hop, visited, limits, budget);
    results.push(outcome.result);
    if (outcome.stopped !== undefined) {
      partial = { reason: outcome.stopped, hop: i };
      break;
    }
    if (outcome.result.truncated) partial ??= { reason: 'hop_cap', hop: i };
    frontier = outcome.result.vertices;
  }
  const stats = { queries: 0, rowsRead: 0 };
  for (const h of results) {
    stats.queries += h.stats.queries;
    stats.rowsRead += h.stats.rowsRead;
  }
  return { hops: results, truncated: results.some((h) => h.truncated), ...(partial === undefined ? {} : { partial }), stats };
}

interface HopLimits {
  readonly cap: number;
  readonly concurrency: number;
  readonly maxInFlight: number;
  readonly pageSize: number;
}

interface HopOutcome {
  readonly result: TraversalHopResult;
  /** Set when the budget, the deadline or an abort ended the hop (not its cap). */
  readonly stopped?: StopReason;
}

/**
 * One hop. The whole frontier is grouped by replica set (the store's token
 * map) and each group is expanded with its own in-flight limit, so one hot
 * node cannot take every slot and a cluster's nodes are read in parallel;
 * `maxInFlight` bounds the sum (with vnodes a frontier spans many replica sets). Each
 * vertex is paged until its links are exhausted, the hop holds `cap` new
 * vertices or the budget stops it; from then on no page is requested and no
 * further vertex is started. A deadline or abort returns at once: pages still
 * in flight are abandoned and add nothing. Which vertices make the cap
 * depends on completion order. The hop is truncated when it stopped with some
 * frontier vertex's links not read to the end.
 */
async function expandHop(ctx: ReadContext, frontier: readonly string[], hop: TraversalHop, visited: Set<string>, limits: HopLimits, budget: ReadBudget): Promise<HopOutcome> {
  const namespace = linkNamespace(hop.type, hop.direction);
  const groups = frontier.length === 0 ? [] : ctx.partitions.replicaGroups(frontier);
  const found: string[] = [];
  let queries = 0;
  let rowsRead = 0;
  let stopped: StopReason | undefined;
  let unfinished = false;
  let done = false; // the hop has returned (or failed): late pages add nothing and start nothing
  const full = () => found.length >= limits.cap;

  const mayRead = (): boolean => {
    if (done || full()) return false;
    const stop = budget.stopReason();
    if (stop === undefined) return true;
    stopped ??= stop;
    return false;
  };

  const expand = async (vertex: string): Promise<void> => {
    let from: ScanPosition | undefined;
    for (;;) {
      if (!mayRead()) {
        unfinished = true;
        return;
      }
      // No more cells than the cap still wants: a page of new live links fills the hop exactly.
      const granted = budget.claim(Math.min(limits.pageSize, limits.cap - found.length));
      queries++;
      const page = await ctx.partitions.scan(namespace, vertex, { limit: granted, ...(from === undefined ? {} : { from }) }).catch((e: unknown) => {
        budget.settle(granted, 0);
        throw e;
      });
      budget.settle(granted, page.cells.length);
      rowsRead += page.cells.length;
      if (done) return;
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
      if (consumed < page.cells.length) {
        unfinished = true;
        return;
      }
      if (page.next === undefined) return;
      if (page.cells.length === 0) throw new Error(`PartitionReader returned an empty scan page of ${namespace}[${vertex}] that is not the last`);
      from = page.next;
    }
  };

  const haltOnError = (e: unknown): never => {
    done = true;
    throw e;
  };
  // No clearQueue on a stop: discarded tasks would never settle. Queued tasks see `mayRead` fail and return.
  const overall = pLimit(limits.maxInFlight);
  const work = Promise.all(
    groups.map((group) => {
      const limit = pLimit(limits.concurrency);
      return Promise.all(group.ids.map((vertex) => limit(() => overall(() => expand(vertex).catch(haltOnError)))));
    }),
  );
  const interrupted = await Promise.race([work.then(() => undefined), budget.interrupted]);
  if (interrupted !== undefined) {
    done = true;
    stopped ??= interrupted;
    unfinished = true;
    work.catch(() => undefined); // abandoned: a late failure has no one to report to
  }
  const result = { vertices: [...found], truncated: unfinished, stats: { queries, rowsRead, frontier: frontier.length, replicaGroups: groups.length } };
  return stopped === undefined ? { result } : { result, stopped };
}
