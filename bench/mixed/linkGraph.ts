import { createRandom } from '../../cli/workload/createRandom.ts';
import { mix32, scrambledId } from '../../cli/workload/scrambledId.ts';

/**
 * The LinkBench-shaped graph bench:mixed loads: `ids` vertices, vertex `v`'s
 * out-degree falls with its rank as 1/(v+1)^degreeExponent, scaled so the
 * mean is `meanDegree` (a fractional part is rounded up with its own seeded
 * probability, so the total is meanDegree × ids in expectation), at most
 * ids − 1. Every link is a pure function of (seed, v, j), so any vertex's
 * loaded links can be rebuilt without keeping the graph: the request phase
 * picks existing links from it and the raw anchor loads the same links.
 */
export interface LinkGraphSpec {
  readonly ids: number;
  readonly meanDegree: number;
  readonly degreeExponent: number;
  readonly seed: number;
  /** Edge times lie in [loadTime − timeSpanMicros, loadTime), µs. */
  readonly loadTime: bigint;
  readonly timeSpanMicros: bigint;
}

export interface GraphLink {
  readonly src: string;
  readonly dst: string;
  /** The client's edge time, µs (LinkBench's `time`). */
  readonly time: bigint;
  readonly data: Uint8Array;
}

export const MIN_DATA_BYTES = 32;
export const MAX_DATA_BYTES = 100;

/** Vertex `v` (rank v: v = 0 has the most links): ids in key order unrelated to rank (cli/workload/scrambledId). */
export const vertexId = (v: number): string => scrambledId('lb', v, 0);

/** Random link data of MIN_DATA_BYTES..MAX_DATA_BYTES bytes drawn from `random`. */
export function randomLinkData(random: () => number): Uint8Array {
  const data = new Uint8Array(MIN_DATA_BYTES + Math.floor(random() * (MAX_DATA_BYTES - MIN_DATA_BYTES + 1)));
  for (let i = 0; i < data.length; i++) data[i] = Math.floor(random() * 256);
  return data;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const unit = (h: number): number => h / 4294967296;

export function createLinkGraph(spec: LinkGraphSpec) {
  const { ids, seed } = spec;
  if (!Number.isInteger(ids) || ids < 2) throw new RangeError(`link graph: ids must be an integer >= 2, got ${ids}`);
  let harmonic = 0;
  for (let v = 0; v < ids; v++) harmonic += (v + 1) ** -spec.degreeExponent;
  const scale = (spec.meanDegree * ids) / harmonic;
  const degrees = new Uint32Array(ids);
  let totalLinks = 0;
  for (let v = 0; v < ids; v++) {
    degrees[v] = Math.min(ids - 1, Math.floor(scale * (v + 1) ** -spec.degreeExponent + unit(mix32(v, seed + 3))));
    totalLinks += degrees[v] as number;
  }
  const others = ids - 1;
  const span = Number(spec.timeSpanMicros);

  /**
   * The j-th link of v goes to others' index (base + j·stride) mod (ids − 1),
   * skipping v itself: stride is coprime with ids − 1, so the destinations of
   * j < ids − 1 are distinct without remembering them.
   */
  const strideOf = (v: number): number => {
    let stride = others === 1 ? 1 : 1 + (mix32(v, seed + 1) % (others - 1));
    while (gcd(stride, others) !== 1) stride = stride + 1 > others ? 1 : stride + 1;
    return stride;
  };
  const dstIndex = (v: number, j: number, stride: number): number => {
    const d = (mix32(v, seed) + j * stride) % others;
    return d >= v ? d + 1 : d;
  };

  const degree = (v: number): number => degrees[v] ?? 0;
  const linkAt = (v: number, j: number, stride = strideOf(v)): GraphLink => {
    const h = mix32(j, mix32(v, seed + 2));
    return {
      src: vertexId(v),
      dst: vertexId(dstIndex(v, j, stride)),
      time: spec.loadTime - 1n - BigInt(Math.floor(unit(h) * span)),
      data: randomLinkData(createRandom(mix32(j, h))),
    };
  };

  /** Every loaded link of v, j = 0 … degree − 1. */
  function* linksOf(v: number): Generator<GraphLink> {
    const stride = strideOf(v);
    for (let j = 0; j < degree(v); j++) yield linkAt(v, j, stride);
  }

  return {
    spec,
    totalLinks,
    degree,
    /** The highest out-degree (vertex 0's). */
    maxDegree: degree(0),
    linkAt,
    linksOf,
    /** Every link, vertex by vertex (the bulk load's order: LinkBench's loader also goes id by id). */
    *allLinks(): Generator<GraphLink> {
      for (let v = 0; v < ids; v++) yield* linksOf(v);
    },
  };
}

export type LinkGraph = ReturnType<typeof createLinkGraph>;
