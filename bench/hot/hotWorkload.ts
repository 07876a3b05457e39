/**
 * The links of one hot-source phase, a pure function of (spec, i) so nothing
 * is kept in memory: link i goes from source `i mod sources` to its own
 * destination `d<i>`. `sources` 1 is the hot source (every event on one input
 * partition); more spread the same events over partitions. Edge times are a
 * permutation of [0, links) µs after `baseTime`, unrelated to publish order,
 * so the newest-first page checks the index's order, not the arrival order.
 */
export interface LinkWorkload {
  readonly links: number;
  readonly sources: number;
  /** Vertex ids of this phase start with it (distinct per phase, so phases share a keyspace). */
  readonly prefix: string;
  /** Edge time of the oldest link, µs. */
  readonly baseTime: bigint;
}

export interface WorkloadLink {
  readonly src: string;
  readonly dst: string;
  readonly time: bigint;
}

export function linkWorkload(o: { links: number; fanoutDegree?: number; prefix: string; baseTime: bigint }): LinkWorkload {
  if (!Number.isInteger(o.links) || o.links < 1) throw new RangeError(`links must be an integer >= 1, got ${o.links}`);
  const sources = o.fanoutDegree === undefined ? 1 : Math.ceil(o.links / o.fanoutDegree);
  return { links: o.links, sources, prefix: o.prefix, baseTime: o.baseTime };
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** An odd stride near links × 0.618 that is coprime to `links`, so i ↦ i × stride mod links is a bijection. */
export function timeStride(links: number): number {
  let s = Math.max(1, Math.floor(links * 0.618) | 1);
  while (gcd(s, links) !== 1) s += 2;
  return s;
}

export const sourceId = (w: LinkWorkload, s: number): string => `${w.prefix}s${s}`;

/** Link i's edge time offset (µs after baseTime): distinct for every i. */
export const timeOffset = (w: LinkWorkload, i: number, stride = timeStride(w.links)): number => (i * stride) % w.links;

export function linkAt(w: LinkWorkload, i: number, stride = timeStride(w.links)): WorkloadLink {
  return { src: sourceId(w, i % w.sources), dst: `${w.prefix}d${i}`, time: w.baseTime + BigInt(timeOffset(w, i, stride)) };
}

/** Links published from source `s`. */
export const degreeOf = (w: LinkWorkload, s: number): number => (s < 0 || s >= Math.min(w.sources, w.links) ? 0 : Math.floor((w.links - 1 - s) / w.sources) + 1);

/** `n` source indexes spread evenly over [0, sources) (all of them when n ≥ sources). */
export function sampleSources(w: LinkWorkload, n: number): number[] {
  const m = Math.min(n, w.sources);
  return Array.from({ length: m }, (_, k) => Math.floor((k * w.sources) / m));
}

/**
 * What a newest-first page of `limit` of source `s` must hold after the drain:
 * its links with the largest edge times, newest first (one ADD per edge, so
 * LWW keeps every link with the time it was published with). One pass over the
 * source's links keeping only the best `limit`.
 */
export function newestPage(w: LinkWorkload, s: number, limit: number): { dst: string; time: bigint }[] {
  const stride = timeStride(w.links);
  const best: { dst: string; time: bigint }[] = [];
  for (let i = s; i < w.links; i += w.sources) {
    const l = linkAt(w, i, stride);
    if (best.length === limit && l.time <= (best[limit - 1] as { time: bigint }).time) continue;
    let at = best.findIndex((b) => b.time < l.time);
    if (at < 0) at = best.length;
    best.splice(at, 0, { dst: l.dst, time: l.time });
    if (best.length > limit) best.pop();
  }
  return best;
}
