import { createRandom } from '../../cli/workload/createRandom.ts';
import { createZipfSampler } from '../../cli/workload/createZipfSampler.ts';
import { mix32 } from '../../cli/workload/scrambledId.ts';
import { randomLinkData, vertexId, type LinkGraph } from './linkGraph.ts';

/** LinkBench's link operations, in the order the report lists them. */
export const OP_KINDS = ['GET_LINKS_LIST', 'MULTIGET_LINK', 'ADD_LINK', 'UPDATE_LINK', 'COUNT_LINK', 'DELETE_LINK'] as const;
export type OpKind = (typeof OP_KINDS)[number];

/**
 * The link-only mix of issue 24 (LinkBench's link operations), in percent.
 * They add up to 100.6, so each is drawn with weight / sum.
 */
export const LINKBENCH_MIX: Readonly<Record<OpKind, number>> = {
  GET_LINKS_LIST: 45,
  MULTIGET_LINK: 24,
  ADD_LINK: 11,
  UPDATE_LINK: 10,
  COUNT_LINK: 8.6,
  DELETE_LINK: 2,
};

/** A newest-first page of this many links (GET_LINKS_LIST). */
export const LINKS_LIST_LIMIT = 50;
/** Links per MULTIGET_LINK: 1 … this many, uniform. */
export const MULTIGET_MAX = 3;
/** Share of MULTIGET/UPDATE/DELETE targets drawn among the source's loaded links; the rest are random vertices (mostly no link). */
export const P_EXISTING = 0.9;

export type MixOp =
  | { readonly kind: 'GET_LINKS_LIST' | 'COUNT_LINK'; readonly src: string }
  | { readonly kind: 'MULTIGET_LINK'; readonly src: string; readonly dsts: readonly string[] }
  | { readonly kind: 'ADD_LINK' | 'UPDATE_LINK'; readonly src: string; readonly dst: string; readonly data: Uint8Array }
  | { readonly kind: 'DELETE_LINK'; readonly src: string; readonly dst: string };

/** Draws an op kind with the mix's weights from a uniform number in [0, 1). */
export function createKindSampler(mix: Readonly<Record<OpKind, number>> = LINKBENCH_MIX): (u: number) => OpKind {
  const total = OP_KINDS.reduce((s, k) => s + mix[k], 0);
  let sum = 0;
  const cumulative = OP_KINDS.map((k) => (sum += mix[k] / total));
  return (u) => OP_KINDS[cumulative.findIndex((c) => u < c)] ?? OP_KINDS[OP_KINDS.length - 1]!;
}

/**
 * The op stream of one requester: its own seeded generator (seed, repeat,
 * client), so two systems given the same (seed, repeat, client) see the same
 * ops in the same order however fast each runs them. Sources are Zipf-skewed
 * by vertex rank (`accessExponent`; rank 0 also has the most links).
 * ADD_LINK targets a random other vertex with new data; UPDATE_LINK an existing
 * link (P_EXISTING) with new data; DELETE_LINK an existing link (P_EXISTING).
 */
export function createOpStream(o: { graph: LinkGraph; accessExponent: number; seed: number; repeat: number; client: number }): () => MixOp {
  const random = createRandom(mix32(o.client, mix32(o.repeat, o.seed)));
  const ids = o.graph.spec.ids;
  const source = createZipfSampler(ids, o.accessExponent, random);
  const kind = createKindSampler();
  const otherThan = (v: number): number => {
    const d = Math.floor(random() * (ids - 1));
    return d >= v ? d + 1 : d;
  };
  const target = (v: number): string => {
    const degree = o.graph.degree(v);
    if (degree > 0 && random() < P_EXISTING) return o.graph.linkAt(v, Math.floor(random() * degree)).dst;
    return vertexId(otherThan(v));
  };
  return () => {
    const k = kind(random());
    const v = source();
    const src = vertexId(v);
    switch (k) {
      case 'GET_LINKS_LIST':
      case 'COUNT_LINK':
        return { kind: k, src };
      case 'MULTIGET_LINK': {
        const n = 1 + Math.floor(random() * MULTIGET_MAX);
        return { kind: k, src, dsts: [...new Set(Array.from({ length: n }, () => target(v)))] };
      }
      case 'ADD_LINK':
        return { kind: k, src, dst: vertexId(otherThan(v)), data: randomLinkData(random) };
      case 'UPDATE_LINK':
        return { kind: k, src, dst: target(v), data: randomLinkData(random) };
      case 'DELETE_LINK':
        return { kind: k, src, dst: target(v) };
    }
  };
}
