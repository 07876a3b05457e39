import { describe, expect, it } from 'vitest';
import { createRandom } from './createRandom.ts';
import { createZipfSampler } from './createZipfSampler.ts';
import { syntheticGraph, type WorkloadOp } from './syntheticGraph.ts';

describe('createZipfSampler', () => {
  it('gives rank 0 the largest share and falls off by rank', () => {
    const sample = createZipfSampler(1000, 1.1, createRandom(7));
    const counts = new Array<number>(1000).fill(0);
    for (let i = 0; i < 100_000; i++) counts[sample()]!++;
    expect(counts[0]!).toBeGreaterThan(counts[1]!);
    expect(counts[1]!).toBeGreaterThan(counts[10]!);
    // P(0) = 1 / H(1000, 1.1) ≈ 0.19 for s = 1.1
    expect(counts[0]! / 100_000).toBeGreaterThan(0.15);
    expect(counts[0]! / 100_000).toBeLessThan(0.23);
  });

  it('rejects a non-positive n', () => {
    expect(() => createZipfSampler(0, 1, Math.random)).toThrow(RangeError);
  });
});

describe('syntheticGraph', () => {
  const ops = (seed: number): WorkloadOp[] =>
    [...syntheticGraph({ events: 2_000, users: 500, edgeType: 'follows', targets: 'zipf', removeRatio: 0.1, propertyRatio: 0.1, seed })];

  it('is reproducible from its seed', () => {
    expect(ops(3)).toEqual(ops(3));
    expect(ops(3)).not.toEqual(ops(4));
  });

  it('mixes follows, unfollows and property updates of earlier edges, never self-loops', () => {
    const all = ops(5);
    const byOp = (op: string) => all.filter((o) => o.op === op).length;
    expect(byOp('ADD_EDGE')).toBeGreaterThan(1_400);
    expect(byOp('REMOVE_EDGE')).toBeGreaterThan(100);
    expect(byOp('SET_PROPERTIES')).toBeGreaterThan(100);
    expect(all.every((o) => o.src !== o.dst)).toBe(true);
    const added = new Set(all.filter((o) => o.op === 'ADD_EDGE').map((o) => `${o.src}>${o.dst}`));
    expect(all.filter((o) => o.op === 'REMOVE_EDGE').every((o) => added.has(`${o.src}>${o.dst}`))).toBe(true);
  });

  it('makes user-0 the celebrity under zipf targets', () => {
    const follows = ops(9).filter((o) => o.op === 'ADD_EDGE');
    const inDegree = new Map<string, number>();
    for (const o of follows) inDegree.set(o.dst, (inDegree.get(o.dst) ?? 0) + 1);
    const top = [...inDegree.entries()].sort((a, b) => b[1] - a[1])[0];
    expect(top?.[0]).toBe('user-0');
  });
});
