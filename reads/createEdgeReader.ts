import pLimit from 'p-limit';
import type { EdgestreamConfig } from '../schemas/config/edgestreamConfig.ts';
import {
  decodeDegreeCount,
  decodeLinkValue,
  DEGREES_NAMESPACE,
  encodeDegreesKey,
  encodeVertexKey,
  forwardLinkNamespace,
  type LinkDirection,
} from '../sinks/namespaces/index.ts';
import { createBoundedTtlCache } from '../sinks/caches/createBoundedTtlCache.ts';
import type { EdgeReader, NeighbourPage, NeighbourPageOptions } from './EdgeReader.ts';
import { checkCursorBelongs, decodeNeighbourCursor, encodeNeighbourCursor } from './neighbourCursor.ts';
import { neighbourSource } from './neighbourSources.ts';
import type { PartitionReader } from './PartitionReader.ts';
import {
  checkDirection,
  checkEdgeType,
  checkHops,
  checkInteger,
  checkOrder,
  checkPropertyKeys,
  checkVertex,
  MAX_PAGE_LIMIT,
  MAX_PER_HOP_CAP,
  MAX_TRAVERSAL_CONCURRENCY,
} from './readArguments.ts';
import { ReadArgumentError } from './ReadArgumentError.ts';
import { sampleOf, type ReadContext } from './ReadContext.ts';
import { NO_READ_COUNTERS, type ReadCounters } from './ReadCounters.ts';
import { readPropertyBag, readRequestedProperties } from './readProperties.ts';
import { scanNeighbours } from './scanNeighbours.ts';
import { traverseHops } from './traverseHops.ts';

export interface EdgeReaderOptions {
  /** Where partitions are read: plain (createStorePartitionReader) or split-aware. */
  readonly partitions: PartitionReader;
  /** Edge types and id limits; arguments are checked against them. */
  readonly config: Pick<EdgestreamConfig, 'edgeTypes' | 'limits'>;
  /** Read-side width counters (createReadCounters); default: none. */
  readonly counters?: ReadCounters;
  /** The read-aside cache of `props(…, keys)`. Default 10 000 entries for 5 s; 0 for either turns it off. */
  readonly propsCache?: { readonly maxEntries: number; readonly ttlMs: number };
  /** ms since the epoch (the props cache's expiry clock). Default Date.now. */
  readonly clock?: () => number;
  /** Point reads in flight at once across this reader. Default 32. */
  readonly readConcurrency?: number;
  /** Largest page asked of the PartitionReader. Default 2000 (a page of 1000 asks for 1250 cells). */
  readonly maxPageCells?: number;
}

/**
 * The EdgeReader over a PartitionReader (reads/README.md). Every partition is
 * addressed logically (namespace, id); where it physically lives is the
 * PartitionReader's business, so the same reader serves split partitions.
 */
export function createEdgeReader(opts: EdgeReaderOptions): EdgeReader {
  const { config } = opts;
  const ctx: ReadContext = {
    partitions: opts.partitions,
    counters: opts.counters ?? NO_READ_COUNTERS,
    limitPointRead: pLimit(checkInteger(opts.readConcurrency ?? 32, 'readConcurrency', 1, 1_024)),
    maxPageCells: checkInteger(opts.maxPageCells ?? 2_000, 'maxPageCells', 1, MAX_PAGE_LIMIT),
  };
  const propsCache = createBoundedTtlCache<Uint8Array | undefined>({ ...(opts.propsCache ?? { maxEntries: 10_000, ttlMs: 5_000 }), nowMs: opts.clock ?? Date.now });

  const neighbours = async (direction: LinkDirection, type: string, vertex: string, options: NeighbourPageOptions): Promise<NeighbourPage> => {
    checkEdgeType(config, type);
    checkVertex(config, vertex, 'vertex');
    if (typeof options !== 'object' || options === null) throw new ReadArgumentError('options', 'must be { limit, cursor?, order? }');
    const limit = checkInteger(options.limit, 'limit', 1, MAX_PAGE_LIMIT);
    const cursor = options.cursor === undefined ? undefined : decodeNeighbourCursor(options.cursor);
    const order = options.order === undefined ? (cursor?.order ?? 'newest') : checkOrder(options.order);
    const query = { order, direction, type, vertex };
    if (cursor !== undefined) checkCursorBelongs(cursor, query);
    const scan = await scanNeighbours(ctx, neighbourSource(order, type, direction), vertex, limit, cursor?.after);
    return scan.exhausted || scan.last === undefined ? { items: scan.items } : { items: scan.items, cursor: encodeNeighbourCursor({ ...query, after: scan.last }) };
  };

  return {
    async edge(type, src, dst) {
      checkEdgeType(config, type);
      checkVertex(config, src, 'src');
      checkVertex(config, dst, 'dst');
      const namespace = forwardLinkNamespace(type);
      const cell = await ctx.partitions.get(namespace, src, encodeVertexKey(dst));
      ctx.counters.record(namespace, src, sampleOf([cell], cell === undefined ? 0 : 1));
      return cell === undefined ? undefined : decodeLinkValue(cell.value);
    },
    out: (type, vertex, options) => neighbours('out', type, vertex, options),
    in: (type, vertex, options) => neighbours('in', type, vertex, options),
    async props(type, src, dst, keys) {
      checkEdgeType(config, type);
      checkVertex(config, src, 'src');
      checkVertex(config, dst, 'dst');
      if (keys === undefined) return readPropertyBag(ctx, type, src, dst);
      return readRequestedProperties(ctx, propsCache, type, src, dst, checkPropertyKeys(config, keys));
    },
    async count(type, vertex, direction) {
      checkEdgeType(config, type);
      checkVertex(config, vertex, 'vertex');
      checkDirection(direction);
      const cell = await ctx.partitions.get(DEGREES_NAMESPACE, vertex, encodeDegreesKey(type, direction));
      ctx.counters.record(DEGREES_NAMESPACE, vertex, sampleOf([cell], cell === undefined ? 0 : 1));
      return cell === undefined ? 0n : decodeDegreeCount(cell.value);
    },
    async traverse(start, hops, options) {
      checkVertex(config, start, 'start');
      const checkedHops = checkHops(config, hops);
      if (typeof options !== 'object' || options === null) throw new ReadArgumentError('options', 'must be { perHopCap, concurrency, pageSize? }');
      const perHopCap = checkInteger(options.perHopCap, 'perHopCap', 1, MAX_PER_HOP_CAP);
      const concurrency = checkInteger(options.concurrency, 'concurrency', 1, MAX_TRAVERSAL_CONCURRENCY);
      const pageSize = checkInteger(options.pageSize ?? Math.min(perHopCap, 1_000), 'pageSize', 1, MAX_PAGE_LIMIT);
      return traverseHops(ctx, start, checkedHops, { perHopCap, concurrency, pageSize });
    },
  };
}
