import pLimit from 'p-limit';
import { decodeVertexKey, isActiveLinkValue, linkNamespace } from '../sinks/namespaces/index.ts';
import type { Traversal, TraversalHop, TraversalHopResult, TraversalPartial } from './EdgeReader.ts';
import { createTaskSet } from './createTaskSet.ts';
import { evenBatches } from './evenBatches.ts';
import type { PartitionScanPage, ScanPosition } from './PartitionReader.ts';
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
 * the link namespaces in no promised order (`PartitionReader.scanMany` for
 * the first pages of a batch of vertices, then `scan`: peer order, or bucket
 * by bucket through a hash split; no index validation needed) and keep
 * ACTIVE links. Every page is claimed from `budget`; when it is spent, the
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

/**
 * Most frontier vertices read by one multi-partition request (`scanMany`).
 * With a first page of at most BATCH_PAGE_CELLS (+1 look-ahead) per vertex, a
 * batch stays within one Cassandra request (≤ 100 ids, ≤ 10 000 rows, answered
 * unpaged), and 64 small partitions cost about 3 ms in one request against
 * about 11 ms as 64 single reads 8 at a time on the 2-core stack.
 */
export const BATCH_IDS = 64;
/**
 * Most cells of a vertex's first page in a batch. A batch claims ids × this
 * many rows of the budget before it starts, so it stays modest; a vertex whose
 * first page is full goes on with its own `scan` from its last key, in pages of
 * `pageSize`.
 */
export const BATCH_PAGE_CELLS = 128;
/**
 * Batches of a hop in flight before any has answered. Once one has, a batch
 * starts only while the batches in flight are not expected (at the new
 * vertices per id seen so far) to fill the hop's cap: a capped hop over a
 * wide frontier read 7 000 links for its 1 000 new vertices with every
 * batch started at once.
 */
export const FIRST_WAVE_BATCHES = 2;

interface HopOutcome {
  readonly result: TraversalHopResult;
  /** Set when the budget, the deadline or an abort ended the hop (not its cap). */
  readonly stopped?: StopReason;
}

/**
 * One hop. The whole frontier is grouped by replica set (the store's token
 * map) and each group is expanded with its own in-flight limit, so one hot
 * node cannot take every slot and a cluster's nodes are read in parallel;
 * `maxInFlight` bounds the sum (with vnodes a frontier spans many replica sets).
 * A group of one vertex is scanned on its own; a larger group in
 * ceil(n / BATCH_IDS) batches of about equal size, one `scanMany` each (one
 * query), and every vertex whose first page was full is then scanned on its
 * own from where that page ended, as one more task of its group. Each vertex is
 * read until its links are exhausted, the hop holds `cap` new vertices or the
 * budget stops it; from then on no page is requested and no further vertex is
 * started. A deadline or abort returns at once: reads still in flight are
 * abandoned and add nothing. Which vertices make the cap depends on
 * completion order. The hop is truncated when it stopped with some frontier
 * vertex's links not read to the end.
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
  const waves = createBatchWaves(limits.cap);

  const mayRead = (): boolean => {
    if (done || full()) return false;
    const stop = budget.stopReason();
    if (stop === undefined) return true;
    stopped ??= stop;
    return false;
  };

  /** One query: claims `rows`, reads with what was granted, settles with the rows it got. */
  const claimed = async <T>(rows: number, read: (granted: number) => Promise<T>, count: (result: T) => number): Promise<T> => {
    const granted = budget.claim(rows);
    queries++;
    const result = await read(granted).catch((e: unknown) => {
      budget.settle(granted, 0);
      throw e;
    });
    const n = count(result);
    budget.settle(granted, n);
    rowsRead += n;
    return result;
  };

  /** Takes a page's new ACTIVE peers up to the cap; returns where the vertex's scan goes on, if it does. */
  const absorb = (vertex: string, page: PartitionScanPage): ScanPosition | undefined => {
    let consumed = 0;
    let taken = 0;
    for (const cell of page.cells) {
      if (full()) break;
      consumed++;
      if (!isActiveLinkValue(cell.value)) continue;
      const peer = decodeVertexKey(cell.key);
      if (visited.has(peer)) continue;
      visited.add(peer);
      found.push(peer);
      taken++;
    }
    ctx.counters.record(namespace, vertex, sampleOf(page.cells, taken));
    if (consumed < page.cells.length) {
      unfinished = true;
      return undefined;
    }
    if (page.next !== undefined && page.cells.length === 0) throw new Error(`PartitionReader returned an empty scan page of ${namespace}[${vertex}] that is not the last`);
    return page.next;
  };

  const expand = async (vertex: string, from?: ScanPosition): Promise<void> => {
    for (;;) {
      if (!mayRead()) {
        unfinished = true;
        return;
      }
      // No more cells than the cap still wants: a page of new live links fills the hop exactly.
      const page = await claimed(
        Math.min(limits.pageSize, limits.cap - found.length),
        (limit) => ctx.partitions.scan(namespace, vertex, { limit, ...(from === undefined ? {} : { from }) }),
        (p) => p.cells.length,
      );
      if (done) return;
      from = absorb(vertex, page);
      if (from === undefined) return;
    }
  };

  const expandBatch = async (ids: readonly string[], continueScan: (vertex: string, from: ScanPosition) => void): Promise<void> => {
    while (mayRead() && !waves.worthStarting(found.length)) await waves.nextAnswer();
    if (!mayRead()) {
      unfinished = true;
      return;
    }
    const wave = waves.start(ids.length);
    try {
      await readBatch(ids, continueScan, wave);
    } finally {
      wave.settle();
    }
  };

  const readBatch = async (ids: readonly string[], continueScan: (vertex: string, from: ScanPosition) => void, wave: BatchWave): Promise<void> => {
    const wanted = Math.min(limits.pageSize, BATCH_PAGE_CELLS, limits.cap - found.length);
    const { batch, pages } = await claimed(
      ids.length * wanted,
      async (granted) => {
        // A nearly spent budget lowers every vertex's page alike, and below a row each reads only the first `granted` vertices.
        const limit = Math.max(1, Math.floor(granted / ids.length));
        const batch = ids.slice(0, Math.floor(granted / limit));
        if (batch.length < ids.length) {
          unfinished = true;
          stopped ??= 'read_budget';
        }
        return { batch, pages: await ctx.partitions.scanMany(namespace, batch, { limit }) };
      },
      (r) => r.pages.reduce((rows, page) => rows + page.cells.length, 0),
    );
    if (done) return;
    const before = found.length;
    batch.forEach((vertex, i) => {
      const next = absorb(vertex, pages[i] as PartitionScanPage);
      if (next !== undefined) continueScan(vertex, next);
    });
    wave.answered(found.length - before);
  };

  const haltOnError = (e: unknown): never => {
    done = true;
    throw e;
  };
  // No clearQueue on a stop: discarded tasks would never settle. Queued tasks see `mayRead` fail and return.
  const overall = pLimit(limits.maxInFlight);
  const tasks = createTaskSet();
  for (const group of groups) {
    const limit = pLimit(limits.concurrency);
    const start = (task: () => Promise<void>) => tasks.add(limit(() => overall(() => task().catch(haltOnError))));
    if (group.ids.length === 1) start(() => expand(group.ids[0] as string));
    else for (const batch of evenBatches(group.ids, BATCH_IDS)) start(() => expandBatch(batch, (vertex, from) => start(() => expand(vertex, from))));
  }
  const work = tasks.idle();
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

interface BatchWave {
  /** The batch was read and absorbed: `found` new vertices from its ids. */
  answered(found: number): void;
  /** The batch is no longer in flight (answered, failed or abandoned); called once. */
  settle(): void;
}

/**
 * When the next batch of a capped hop is worth starting (FIRST_WAVE_BATCHES):
 * counts the ids of the batches in flight and the new vertices per id of the
 * batches that answered, and wakes the batches waiting for either to change.
 */
function createBatchWaves(cap: number) {
  let batchesInFlight = 0;
  let idsInFlight = 0;
  let idsAnswered = 0;
  let newFromAnswered = 0;
  let change: { promise: Promise<void>; resolve: () => void } | undefined;
  return {
    worthStarting(found: number): boolean {
      if (batchesInFlight === 0) return true;
      if (idsAnswered === 0) return batchesInFlight < FIRST_WAVE_BATCHES;
      return found + (newFromAnswered / idsAnswered) * idsInFlight < cap;
    },
    /** Resolves when a batch in flight settles. */
    nextAnswer(): Promise<void> {
      if (change === undefined) {
        let resolve = (): void => {};
        const promise = new Promise<void>((r) => (resolve = r));
        change = { promise, resolve };
      }
      return change.promise;
    },
    start(ids: number): BatchWave {
      batchesInFlight++;
      idsInFlight += ids;
      return {
        answered(n) {
          idsAnswered += ids;
          newFromAnswered += n;
        },
        settle() {
          batchesInFlight--;
          idsInFlight -= ids;
          const waiting = change;
          change = undefined;
          waiting?.resolve();
        },
      };
    },
  };
}
