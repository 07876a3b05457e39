import type { LinkDirection, LinkValue, PropertyValue } from '../sinks/namespaces/index.ts';
import type { PartialReason } from './readBudget.ts';

/**
 * The read API over the write path's namespaces (docs/architecture.md §5).
 * Every method validates its arguments first and throws ReadArgumentError
 * naming the bad one; storage failures surface as the PartitionReader's
 * errors (StoreError). Reads are eventually consistent with the write path:
 * they see what the fan-out has written so far.
 */
export interface EdgeReader {
  /** The link src → dst as stored in `T_out[src]`, or undefined if no op ever touched it. */
  edge(type: string, src: string, dst: string): Promise<EdgeLink | undefined>;
  /** A page of `vertex`'s ACTIVE out-neighbours (vertex is the src). */
  out(type: string, vertex: string, options: NeighbourPageOptions): Promise<NeighbourPage>;
  /** A page of `vertex`'s ACTIVE in-neighbours (vertex is the dst). */
  in(type: string, vertex: string, options: NeighbourPageOptions): Promise<NeighbourPage>;
  /**
   * TAO's `assoc_time_range`: a page of `vertex`'s ACTIVE neighbours in
   * `direction` whose edge time lies in [low, high), newest first: one slice
   * of the `*_recent` index bounded at both ends and one `getKeys` of the link
   * partition per read, as for a newest page. Page on by `cursor`, or by time
   * (`high` = the last item's time; exact while no two edges of `vertex` share a time).
   */
  timeRange(type: string, vertex: string, direction: LinkDirection, options: TimeRangeOptions): Promise<NeighbourPage>;
  /**
   * TAO's `assoc_get`: the links src → each of `dsts` (1..MAX_EDGES_PER_GET,
   * duplicates dropped), in the order asked, from ONE `getKeys` of `T_out[src]`;
   * with `keys`, also those properties of each edge found (one multi-key read
   * per edge's bag). An edge no op ever touched has `link` undefined;
   * REMOVED (and HIDDEN) links are returned with their state.
   */
  edges(type: string, src: string, dsts: readonly string[], options?: EdgesOptions): Promise<EdgeGet[]>;
  /**
   * The edge's property bag (shared by a→b and b→a). With `keys`, only those
   * properties are read (one point read each, served from a short-lived
   * read-aside cache unless `options.fresh`); absent ones are left out of the
   * result. Properties outlive a REMOVE_EDGE, as on the write path.
   */
  props(type: string, src: string, dst: string, keys?: readonly string[], options?: PropsOptions): Promise<Record<string, PropertyValue>>;
  /**
   * The recounted degree of `vertex` (ACTIVE links in `direction`); 0n when
   * never counted. A projection: it lags the links by at least one recount interval.
   */
  count(type: string, vertex: string, direction: LinkDirection): Promise<bigint>;
  /**
   * Breadth-first k-hop expansion from `start`, one hop per entry of `hops`,
   * within a read budget and deadline; a cut result says why in `partial`.
   */
  traverse(start: string, hops: readonly TraversalHop[], options?: TraversalOptions): Promise<Traversal>;
}

/** A link as stored in `T_out[src]`: its state, edge time (µs), mutation id (and `data` once links carry it). */
export type EdgeLink = LinkValue;

export interface TimeRangeOptions extends ReadBounds {
  /** Oldest edge time included, µs; default 0. */
  readonly low?: bigint;
  /** Edge time excluded and every later one, µs; default unbounded. At least `low`. */
  readonly high?: bigint;
  /** Most neighbours to return, an integer in [1, MAX_RANGE_LIMIT]. */
  readonly limit: number;
  /** The `cursor` of the previous page (newest order, same vertex, type, direction): continues within [low, high). */
  readonly cursor?: string;
}

export interface EdgesOptions extends ReadBounds, PropsOptions {
  /** Properties to read of each edge found (key pushdown); none when absent. */
  readonly keys?: readonly string[];
}

export interface PropsOptions {
  /**
   * Read the requested properties from the store, not the props cache (which
   * may predate a write the caller must see, e.g. a read carrying a
   * consistency token), and refresh the cache with what was read. Default false.
   */
  readonly fresh?: boolean;
}

export interface EdgeGet {
  readonly dst: string;
  /** Undefined when no op ever touched src → dst. */
  readonly link: EdgeLink | undefined;
  /** The requested properties present on the edge, when `keys` were asked and the link exists. */
  readonly props?: Record<string, PropertyValue>;
}

/**
 * `newest`: by link time, newest first (the `*_recent` index, each entry
 * checked against the link). `peer`: by peer id, UTF-8 byte order (the link
 * namespace itself; cheaper, no extra point reads).
 */
export type NeighbourOrder = 'newest' | 'peer';

/**
 * Bounds of one multi-read call; each defaults to the config's `reads`
 * section (schemas/config/edgestreamConfig.ts).
 */
export interface ReadBounds {
  /** Most cells read in total, pages and point reads. */
  readonly maxRows?: number;
  /** Most partition reads (a page or a point read each). */
  readonly maxQueries?: number;
  /** Wall-clock ms the call may take. */
  readonly deadlineMs?: number;
  /** Cancels the call: a traversal returns what it has, other reads throw ReadLimitError. */
  readonly signal?: AbortSignal;
}

export interface NeighbourPageOptions extends ReadBounds {
  /** Most neighbours to return, an integer in [1, MAX_PAGE_LIMIT]. */
  readonly limit: number;
  /** The `cursor` of the previous page of the same query. */
  readonly cursor?: string;
  /** Default `newest`, or the cursor's order when a cursor is given. */
  readonly order?: NeighbourOrder;
}

/** An ACTIVE link seen from the vertex read: the peer and the link value's fields but its state (`time` is the edge time of the ADD_EDGE, µs). */
export interface Neighbour extends Omit<LinkValue, 'state'> {
  readonly peer: string;
}

export interface NeighbourPage {
  readonly items: readonly Neighbour[];
  /** Present exactly when more neighbours may follow; opaque, valid only for the same query. */
  readonly cursor?: string;
}

export interface TraversalHop {
  readonly type: string;
  readonly direction: LinkDirection;
  /** Most new vertices of this hop; default the call's `perHopCap`. */
  readonly cap?: number;
}

export interface TraversalOptions extends ReadBounds {
  /** Most new vertices collected per hop (unless the hop sets `cap`); the hop stops reading once it has them. Default `reads.traversal.perHopCap`. */
  readonly perHopCap?: number;
  /** Frontier reads in flight per replica set. Default `reads.traversal.concurrencyPerReplicaSet`. */
  readonly concurrency?: number;
  /** Frontier reads in flight in all, across replica sets. Default `reads.traversal.maxInFlight`. */
  readonly maxInFlight?: number;
  /** Link cells per page read. Default min(the hop's cap, 1000). */
  readonly pageSize?: number;
}

/** Why a traversal or a hop holds less than it could: see `PartialReason` (reads/readBudget.ts). */
export interface TraversalPartial {
  readonly reason: PartialReason;
  /** The (0-based) hop it happened at: the first hop cut, or the hop a stop cut short. */
  readonly hop: number;
}

export interface TraversalHopStats {
  /** Partition reads (pages) the hop issued. */
  readonly queries: number;
  /** Link cells those pages returned. */
  readonly rowsRead: number;
  /** Frontier vertices the hop had to expand. */
  readonly frontier: number;
  /** Replica sets that frontier spans (its in-flight limit applies to each). */
  readonly replicaGroups: number;
}

export interface TraversalHopResult {
  /** Vertices first reached at this hop (never the start or an earlier hop's), in discovery order. */
  readonly vertices: readonly string[];
  /** True when the hop stopped (cap, budget, deadline, abort) with neighbours of its frontier left unread. */
  readonly truncated: boolean;
  readonly stats: TraversalHopStats;
}

export interface Traversal {
  /** One per hop run; fewer than asked when a stop (budget, deadline, abort) ended the traversal early. */
  readonly hops: readonly TraversalHopResult[];
  /** True when any hop was truncated. */
  readonly truncated: boolean;
  /** Present when the result is partial: a stop's reason wins over a hop cap. */
  readonly partial?: TraversalPartial;
  readonly stats: { readonly queries: number; readonly rowsRead: number };
}
