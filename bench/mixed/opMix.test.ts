import { describe, expect, it } from 'vitest';
import { createLinkGraph } from './linkGraph.ts';
import { createKindSampler, createOpStream, LINKBENCH_MIX, MULTIGET_MAX, OP_KINDS, type MixOp, type OpKind } from './opMix.ts';

const graph = createLinkGraph({ ids: 1_000, meanDegree: 9, degreeExponent: 0.8, seed: 1, loadTime: 1_700_000_000_000_000n, timeSpanMicros: 86_400_000_000n });
const take = (next: () => MixOp, n: number) => Array.from({ length: n }, next);

describe('createKindSampler', () => {
  it('draws each kind with its share of the mix (weights normalised: they add up to 100.6)', () => {
    const sample = createKindSampler();
    const counts = new Map<OpKind, number>();
    const n = 100_000;
    for (let i = 0; i < n; i++) {
      const k = sample((i + 0.5) / n); // a uniform grid: shares are exact up to one step
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const total = OP_KINDS.reduce((s, k) => s + LINKBENCH_MIX[k], 0);
    for (const k of OP_KINDS) expect(Math.abs((counts.get(k) ?? 0) / n - LINKBENCH_MIX[k] / total)).toBeLessThan(1e-4);
  });
});

describe('createOpStream', () => {
  it('is reproducible per (seed, repeat, client) and differs between clients', () => {
    const a = take(createOpStream({ graph, accessExponent: 0.8, seed: 3, repeat: 1, client: 0 }), 200);
    expect(take(createOpStream({ graph, accessExponent: 0.8, seed: 3, repeat: 1, client: 0 }), 200)).toEqual(a);
    expect(take(createOpStream({ graph, accessExponent: 0.8, seed: 3, repeat: 1, client: 1 }), 200)).not.toEqual(a);
    expect(take(createOpStream({ graph, accessExponent: 0.8, seed: 3, repeat: 2, client: 0 }), 200)).not.toEqual(a);
  });

  it('skews sources to the low ranks and aims updates, deletes and multi-gets mostly at loaded links', () => {
    const ops = take(createOpStream({ graph, accessExponent: 0.8, seed: 3, repeat: 1, client: 0 }), 20_000);
    const top = new Set(Array.from({ length: 10 }, (_, v) => graph.linkAt(v, 0).src));
    expect(ops.filter((op) => top.has(op.src)).length / ops.length).toBeGreaterThan(0.1); // 1% of the ids
    const loadedLinks = new Set([...graph.allLinks()].map((l) => `${l.src} ${l.dst}`));
    const loaded = (src: string, dst: string) => loadedLinks.has(`${src} ${dst}`);
    const aimed = ops.filter((op): op is Extract<MixOp, { kind: 'UPDATE_LINK' | 'DELETE_LINK' }> => op.kind === 'UPDATE_LINK' || op.kind === 'DELETE_LINK').slice(0, 300);
    expect(aimed.filter((op) => loaded(op.src, op.dst)).length / aimed.length).toBeGreaterThan(0.8);
    for (const op of ops) {
      if (op.kind === 'MULTIGET_LINK') expect(op.dsts.length >= 1 && op.dsts.length <= MULTIGET_MAX).toBe(true);
      if (op.kind === 'ADD_LINK' || op.kind === 'UPDATE_LINK') expect(op.data.length >= 32 && op.data.length <= 100).toBe(true);
      if ('dst' in op) expect(op.dst).not.toBe(op.src);
    }
  });
});
