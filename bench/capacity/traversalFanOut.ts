/**
 * Read fan-out of a capped multi-hop traversal (docs/architecture.md §6 "Traversals"): the
 * frontier is grouped by replica set, each group read in batches of BATCH_IDS ids with a first
 * page of BATCH_PAGE_CELLS links per id, and batches start in waves only while the cap is not
 * expected to fill. On one node every id shares one replica group; on a cluster the ids of a
 * frontier spread over nodes × vnodes replica sets and the batches shrink. The hops are those of
 * bench:reads, in → out ("who else do X's followers follow"): a follower reached over an in-link
 * is drawn in proportion to its out-degree, so every hop reads the size-biased out-degree (with
 * independent in- and out-ranks, an out → out hop would read the plain mean instead).
 */
import { BATCH_IDS, BATCH_PAGE_CELLS, FIRST_WAVE_BATCHES } from '../../reads/traverseHops.ts';

export interface TraversalInputs {
  readonly hops: number;
  readonly perHopCap: number;
  /** Links of the start vertex. */
  readonly startDegree: number;
  /** Links of a vertex reached over an edge (the size-biased mean degree). */
  readonly reachedDegree: number;
  /** Distinct replica sets a frontier spreads over: nodes × vnodes on a cluster, 1 on one node. */
  readonly replicaGroups: number;
}

export interface HopFanOut {
  readonly frontier: number;
  /** Frontier ids read before the cap is expected to fill. */
  readonly idsRead: number;
  readonly replicaGroups: number;
  readonly queries: number;
  readonly rows: number;
}

/** Expected distinct groups hit by n ids spread uniformly over g groups. */
export function distinctGroups(ids: number, groups: number): number {
  if (ids <= 0) return 0;
  if (groups <= 1) return 1;
  return groups * -Math.expm1(ids * Math.log1p(-1 / groups));
}

export function traversalFanOut(t: TraversalInputs): HopFanOut[] {
  const hops: HopFanOut[] = [];
  let frontier = 1;
  for (let h = 0; h < t.hops; h++) {
    const degree = h === 0 ? t.startDegree : t.reachedDegree;
    const perIdFirstPage = Math.max(1, Math.min(degree, BATCH_PAGE_CELLS));
    // Ids of one query: a replica group's share of the frontier, in even batches of at most BATCH_IDS.
    const groups = distinctGroups(frontier, t.replicaGroups);
    const perGroup = frontier / groups;
    const idsPerQuery = perGroup / Math.ceil(perGroup / BATCH_IDS);
    // The first wave always goes; later batches only while the cap is not expected to fill.
    const needed = Math.ceil(t.perHopCap / perIdFirstPage);
    const idsRead = Math.min(frontier, Math.max(needed, FIRST_WAVE_BATCHES * idsPerQuery));
    const queries = Math.ceil(idsRead / idsPerQuery);
    // First pages, plus scans of vertices with more links when the ids alone cannot fill the cap.
    const rows = Math.max(idsRead * perIdFirstPage, Math.min(t.perHopCap, idsRead * degree));
    hops.push({ frontier, idsRead, replicaGroups: distinctGroups(idsRead, t.replicaGroups), queries, rows });
    frontier = Math.max(1, Math.floor(Math.min(t.perHopCap, rows)));
  }
  return hops;
}
