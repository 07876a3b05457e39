import pLimit from 'p-limit';
import type { EdgestreamConfig } from '../schemas/config/edgestreamConfig.ts';
import {
  decodeDegreeCount,
  decodeLinkValue,
  DEGREES_NAMESPACE,
  edgePropertyBag,
  encodeDegreesKey,
  encodeVertexKey,
  forwardLinkNamespace,
  MAX_TIME,
  type LinkDirection,
} from '../sinks/namespaces/index.ts';
import { createBoundedTtlCache } from '../sinks/caches/createBoundedTtlCache.ts';
import { budgetedPartitionReader } from './budgetedPartitionReader.ts';
import type { EdgeGet, EdgeReader, EdgesOptions, NeighbourPage, NeighbourPageOptions, ReadBounds, TimeRangeOptions } from './EdgeReader.ts';
import { checkCursorBelongs, decodeNeighbourCursor, encodeNeighbourCursor, type NeighbourCursor } from './neighbourCursor.ts';
import { neighbourSource, recentIndexSource } from './neighbourSources.ts';
import type { PartitionReader } from './PartitionReader.ts';
import {
  checkDirection,
  checkDsts,
  checkEdgeType,
  checkHops,
  checkInteger,
  checkOrder,
  checkPropertyKeys,
  checkReadBounds,
  checkTime,
  checkVertex,
  MAX_PAGE_LIMIT,
  MAX_RANGE_LIMIT,
  MAX_PER_HOP_CAP,
  MAX_TRAVERSAL_CONCURRENCY,
  MAX_TRAVERSAL_IN_FLIGHT,
} from './readArguments.ts';
import { isReadArgumentError, ReadArgumentError } from './ReadArgumentError.ts';
import { createReadBudget } from './readBudget.ts';
import { getKeys, sampleOf, type ReadContext } from './ReadContext.ts';
import { NO_READ_COUNTERS, type ReadCounters } from './ReadCounters.ts';
import { NO_READ_OBSERVER, type ReadObservation, type ReadObserver, type ReadOperation } from './ReadObserver.ts';
import { readPropertyBag, readRequestedProperties } from './readProperties.ts';
import { laterBound, recentKeyRange } from './recentKeyRange.ts';
import { cellsToAskFor, scanNeighbours, type NeighbourScan } from './scanNeighbours.ts';
import { traverseHops } from './traverseHops.ts';
import { createValidationGuesses } from './validationGuesses.ts';

/** `high` of a time range with no upper end. */
const OPEN_HIGH = MAX_TIME + 1n;
/** Most index cells one read of a time range asks for: a full MAX_RANGE_LIMIT page and its slack. */
const MAX_RANGE_PAGE_CELLS = cellsToAskFor(MAX_RANGE_LIMIT);

export interface EdgeReaderOptions {
  /** Where partitions are read: plain (createStorePartitionReader) or split-aware. */
  readonly partitions: PartitionReader;
  /** Edge types, id limits and read bounds; arguments are checked against them. */
  readonly config: Pick<EdgestreamConfig, 'edgeTypes' | 'limits' | 'reads'>;
  /** Read-side width counters (createReadCounters); default: none. */
  readonly counters?: ReadCounters;
  /** Told the latency, queries and outcome of every call (metrics/createReadMetrics); default: none. */
  readonly observer?: ReadObserver;
  /** The read-aside cache of `props(…, keys)`. Default 10 000 entries for 5 s; 0 for either turns it off. */
  readonly propsCache?: { readonly maxEntries: number; readonly ttlMs: number };
  /** ms since the epoch (the props cache's expiry clock). Default Date.now. */
  readonly clock?: () => number;
  /** Point reads in flight at once across this reader. Default 32. */
  readonly readConcurrency?: number;
  /** Largest page asked of the PartitionReader. Default 2000 (a page of 1000 asks for 1250 cells). */
  readonly maxPageCells?: number;
  /**
   * Newest-page positions whose validated peers are remembered, so a repeated read validates while its
   * slice is in flight (reads/validationGuesses). Default 4 096 positions of at most 256 peers for 60 s;
   * 0 for either turns it off.
   */
  readonly validationGuesses?: { readonly maxEntries: number; readonly ttlMs: number };
}

/** Pages of more peers than this are not remembered: a scan's pages are read once, so a guess would only waste reads. */
const MAX_GUESS_PEERS = 256;

/**
 * The EdgeReader over a PartitionReader (reads/README.md). Every partition is
 * addressed logically (namespace, id); where it physically lives is the
 * PartitionReader's business, so the same reader serves split partitions.
 */
export function createEdgeReader(opts: EdgeReaderOptions): EdgeReader {
  const { config } = opts;
  const symmetricTypes = new Set(config.edgeTypes.filter((t) => t.symmetric).map((t) => t.name));
  const base: ReadContext = {
    partitions: opts.partitions,
    counters: opts.counters ?? NO_READ_COUNTERS,
    observer: opts.observer ?? NO_READ_OBSERVER,
    limitPointRead: pLimit(checkInteger(opts.readConcurrency ?? 32, 'readConcurrency', 1, 1_024)),
    maxPageCells: checkInteger(opts.maxPageCells ?? 2_000, 'maxPageCells', 1, MAX_PAGE_LIMIT),
    validationGuesses: createValidationGuesses({ ...(opts.validationGuesses ?? { maxEntries: 4_096, ttlMs: 60_000 }), maxPeers: MAX_GUESS_PEERS, nowMs: opts.clock ?? Date.now }),
  };
  const propsCache = createBoundedTtlCache<Uint8Array | undefined>({ ...(opts.propsCache ?? { maxEntries: 10_000, ttlMs: 5_000 }), nowMs: opts.clock ?? Date.now });

  const observed = createObservedRun(base);
  /** Runs a single-answer read under its own budget: a read past it throws ReadLimitError. */
  const withBudget = async <T>(ctx: ReadContext, bounds: ReadBounds, what: string, read: (budgeted: ReadContext) => Promise<T>): Promise<T> => {
    const budget = createReadBudget(checkReadBounds(config, bounds));
    try {
      return await read({ ...ctx, partitions: budgetedPartitionReader(ctx.partitions, budget, what) });
    } finally {
      budget.dispose();
    }
  };
  // A cursor ends on a key of T_<dir> (a peer id) or T_<dir>_recent (8-byte time ‖ peer id).
  const cursorBounds = { maxCursorBytes: config.reads.maxCursorBytes, maxKeyBytes: config.limits.maxVertexIdBytes + 8 };

  const pageOf = (scan: NeighbourScan, query: Omit<NeighbourCursor, 'after'>): NeighbourPage =>
    scan.exhausted || scan.last === undefined ? { items: scan.items } : { items: scan.items, cursor: encodeNeighbourCursor({ ...query, after: scan.last }) };

  const neighbours = async (ctx: ReadContext, direction: LinkDirection, type: string, vertex: string, options: NeighbourPageOptions): Promise<NeighbourPage> => {
    checkEdgeType(config, type);
    checkVertex(config, vertex, 'vertex');
    if (typeof options !== 'object' || options === null) throw new ReadArgumentError('options', 'must be { limit, cursor?, order? }');
    const limit = checkInteger(options.limit, 'limit', 1, MAX_PAGE_LIMIT);
    const cursor = options.cursor === undefined ? undefined : decodeNeighbourCursor(options.cursor, cursorBounds);
    const order = options.order === undefined ? (cursor?.order ?? 'newest') : checkOrder(options.order);
    const query = { order, direction, type, vertex };
    if (cursor !== undefined) checkCursorBelongs(cursor, query);
    const what = `${direction} ${type} ${JSON.stringify(vertex)}`;
    const scan = await withBudget(ctx, options, what, (budgeted) => scanNeighbours(budgeted, neighbourSource(order, type, direction), vertex, limit, cursor?.after));
    return pageOf(scan, query);
  };

  const timeRange = async (ctx: ReadContext, type: string, vertex: string, direction: LinkDirection, options: TimeRangeOptions): Promise<NeighbourPage> => {
    checkEdgeType(config, type);
    checkVertex(config, vertex, 'vertex');
    checkDirection(direction);
    if (typeof options !== 'object' || options === null) throw new ReadArgumentError('options', 'must be { limit, low?, high?, cursor? }');
    const limit = checkInteger(options.limit, 'limit', 1, MAX_RANGE_LIMIT);
    const low = checkTime(options.low ?? 0n, 'low');
    const high = checkTime(options.high ?? OPEN_HIGH, 'high', OPEN_HIGH);
    if (low > high) throw new ReadArgumentError('low', `must be at most high (${high}), got ${low}`);
    const query = { order: 'newest', direction, type, vertex } as const;
    const cursor = options.cursor === undefined ? undefined : decodeNeighbourCursor(options.cursor, cursorBounds);
    if (cursor !== undefined) checkCursorBelongs(cursor, query);
    if (low === high) return { items: [] };
    const range = recentKeyRange(low, high);
    // A page as large as the limit asks for one slice of it (and slack for stale entries), not maxPageCells at a time.
    const maxPageCells = Math.max(ctx.maxPageCells, Math.min(MAX_RANGE_PAGE_CELLS, cellsToAskFor(limit)));
    const what = `${direction} ${type} ${JSON.stringify(vertex)} in [${low}, ${high})`;
    const scan = await withBudget({ ...ctx, maxPageCells }, options, what, (budgeted) =>
      scanNeighbours(budgeted, recentIndexSource(type, direction, range.before), vertex, limit, laterBound(cursor?.after, range.after)),
    );
    return pageOf(scan, query);
  };

  const edges = async (ctx: ReadContext, type: string, src: string, dsts: readonly string[], options: EdgesOptions): Promise<EdgeGet[]> => {
    checkEdgeType(config, type);
    checkVertex(config, src, 'src');
    const peers = checkDsts(config, dsts);
    if (typeof options !== 'object' || options === null) throw new ReadArgumentError('options', 'must be { keys?, fresh?, maxRows?, maxQueries?, deadlineMs?, signal? }');
    const names = options.keys === undefined ? undefined : checkPropertyKeys(config, options.keys);
    const fresh = options.fresh === true;
    const what = `edges ${type} ${JSON.stringify(src)} -> ${peers.length} dsts`;
    return withBudget(ctx, options, what, async (budgeted) => {
      const namespace = forwardLinkNamespace(type);
      const cells = await getKeys(budgeted, namespace, src, peers.map(encodeVertexKey));
      budgeted.counters.record(namespace, src, sampleOf(cells, cells.filter((c) => c !== undefined).length));
      const links = cells.map((cell) => (cell === undefined ? undefined : decodeLinkValue(cell.value)));
      const symmetric = symmetricTypes.has(type);
      return Promise.all(
        peers.map(async (dst, i): Promise<EdgeGet> => {
          const link = links[i];
          if (names === undefined || link === undefined) return { dst, link };
          return { dst, link, props: await readRequestedProperties(budgeted, propsCache, edgePropertyBag(type, src, dst, symmetric), names, fresh) };
        }),
      );
    });
  };

  return {
    edge: (type, src, dst) =>
      observed('edge', async (ctx) => {
        checkEdgeType(config, type);
        checkVertex(config, src, 'src');
        checkVertex(config, dst, 'dst');
        const namespace = forwardLinkNamespace(type);
        const cell = await ctx.partitions.get(namespace, src, encodeVertexKey(dst));
        ctx.counters.record(namespace, src, sampleOf([cell], cell === undefined ? 0 : 1));
        return cell === undefined ? undefined : decodeLinkValue(cell.value);
      }),
    out: (type, vertex, options) => observed('out', (ctx) => neighbours(ctx, 'out', type, vertex, options)),
    in: (type, vertex, options) => observed('in', (ctx) => neighbours(ctx, 'in', type, vertex, options)),
    timeRange: (type, vertex, direction, options) => observed('timeRange', (ctx) => timeRange(ctx, type, vertex, direction, options)),
    edges: (type, src, dsts, options = {}) => observed('edges', (ctx) => edges(ctx, type, src, dsts, options)),
    props: (type, src, dst, keys, options = {}) =>
      observed('props', async (ctx) => {
        checkEdgeType(config, type);
        checkVertex(config, src, 'src');
        checkVertex(config, dst, 'dst');
        const bag = edgePropertyBag(type, src, dst, symmetricTypes.has(type));
        const what = `props ${type} ${JSON.stringify(src)} ${JSON.stringify(dst)}`;
        if (keys === undefined) return withBudget(ctx, {}, what, (budgeted) => readPropertyBag(budgeted, bag));
        const names = checkPropertyKeys(config, keys);
        return withBudget(ctx, {}, what, (budgeted) => readRequestedProperties(budgeted, propsCache, bag, names, options.fresh === true));
      }),
    count: (type, vertex, direction) =>
      observed('count', async (ctx) => {
        checkEdgeType(config, type);
        checkVertex(config, vertex, 'vertex');
        checkDirection(direction);
        const cell = await ctx.partitions.get(DEGREES_NAMESPACE, vertex, encodeDegreesKey(type, direction));
        ctx.counters.record(DEGREES_NAMESPACE, vertex, sampleOf([cell], cell === undefined ? 0 : 1));
        return cell === undefined ? 0n : decodeDegreeCount(cell.value);
      }),
    traverse: (start, hops, options = {}) =>
      observed('traverse', async (ctx) => {
        checkVertex(config, start, 'start');
        const checkedHops = checkHops(config, hops);
        if (typeof options !== 'object' || options === null) throw new ReadArgumentError('options', 'must be { perHopCap?, concurrency?, maxInFlight?, pageSize?, maxRows?, maxQueries?, deadlineMs?, signal? }');
        const { traversal } = config.reads;
        const perHopCap = checkInteger(options.perHopCap ?? traversal.perHopCap, 'perHopCap', 1, MAX_PER_HOP_CAP);
        const concurrency = checkInteger(options.concurrency ?? traversal.concurrencyPerReplicaSet, 'concurrency', 1, MAX_TRAVERSAL_CONCURRENCY);
        const maxInFlight = checkInteger(options.maxInFlight ?? traversal.maxInFlight, 'maxInFlight', 1, MAX_TRAVERSAL_IN_FLIGHT);
        const pageSize = options.pageSize === undefined ? undefined : checkInteger(options.pageSize, 'pageSize', 1, MAX_PAGE_LIMIT);
        const budget = createReadBudget(checkReadBounds(config, options));
        try {
          return await traverseHops(ctx, start, checkedHops, { perHopCap, concurrency, maxInFlight, pageSize }, budget);
        } finally {
          budget.dispose();
        }
      }),
  };
}

/**
 * Runs one reader call against a context whose PartitionReader counts the
 * calls, and tells the observer the call's latency, queries and outcome.
 * Without an observer the call runs on the plain context.
 */
function createObservedRun(ctx: ReadContext) {
  return <T>(operation: ReadOperation, run: (ctx: ReadContext) => Promise<T>): Promise<T> => {
    if (ctx.observer === NO_READ_OBSERVER) return run(ctx);
    let queries = 0;
    const { partitions } = ctx;
    const counted: ReadContext = {
      ...ctx,
      partitions: {
        get: (namespace, id, key) => (queries++, partitions.get(namespace, id, key)),
        getKeys: (namespace, id, keys) => (queries++, partitions.getKeys(namespace, id, keys)),
        page: (namespace, id, query) => (queries++, partitions.page(namespace, id, query)),
        scan: (namespace, id, query) => (queries++, partitions.scan(namespace, id, query)),
        scanMany: (namespace, ids, query) => (queries++, partitions.scanMany(namespace, ids, query)),
        replicaGroups: (ids) => partitions.replicaGroups(ids),
      },
    };
    const started = performance.now();
    const finish = (outcome: ReadObservation['outcome']) => ctx.observer.read({ operation, seconds: (performance.now() - started) / 1_000, queries, outcome });
    // then() rather than an async wrapper: one promise less per call on the read path.
    return run(counted).then(
      (result) => {
        finish('ok');
        return result;
      },
      (e: unknown) => {
        finish(isReadArgumentError(e) ? 'invalid' : 'error');
        throw e;
      },
    );
  };
}
