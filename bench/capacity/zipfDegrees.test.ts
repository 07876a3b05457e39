import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRandom } from '../../cli/workload/createRandom.ts';
import { createZipfSampler } from '../../cli/workload/createZipfSampler.ts';
import { degreeAtRank, edgesOfVerticesWithDegreeAtLeast, harmonic, sizeBiasedMeanDegree, verticesWithDegreeAtLeast, verticesWithEdges, zipfDegrees } from './zipfDegrees.ts';

function exactHarmonic(n: number, s: number): number {
  let sum = 0;
  for (let r = n; r >= 1; r--) sum += Math.pow(r, -s);
  return sum;
}

describe('harmonic', () => {
  it.each([0.3, 0.9, 1, 1.0000001, 1.1, 2])('matches the summed series past the exact head (s = %s)', (s) => {
    for (const n of [1, 9_999, 10_000, 10_001, 123_457]) expect(harmonic(n, s)).toBeCloseTo(exactHarmonic(n, s), 9);
  });

  it('at s = 1 follows ln n + γ for a billion terms', () => {
    expect(harmonic(1e9, 1)).toBeCloseTo(Math.log(1e9) + 0.5772156649 + 0.5e-9, 8);
  });

  it('grows with n and shrinks with s', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e12 }), fc.integer({ min: 1, max: 1e12 }), fc.double({ min: 0.1, max: 3, noNaN: true }), (a, b, s) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(harmonic(hi, s)).toBeGreaterThanOrEqual(harmonic(lo, s) * (1 - 1e-12));
        expect(harmonic(hi, s + 0.1)).toBeLessThanOrEqual(harmonic(hi, s) * (1 + 1e-12));
      }),
    );
  });
});

describe('zipfDegrees against a seeded simulation of the same generator', () => {
  // E targets drawn by createZipfSampler (what bench:ingest and cli/workload draw), counted.
  const V = 20_000;
  const E = 200_000;
  const s = 0.9;
  const sample = createZipfSampler(V, s, createRandom(7));
  const degree = new Uint32Array(V);
  for (let i = 0; i < E; i++) degree[sample()]! += 1;
  const z = zipfDegrees(V, E, s);

  it('predicts the vertices with at least one edge within 0.5 %', () => {
    const hit = degree.reduce((a, d) => a + (d > 0 ? 1 : 0), 0);
    expect(Math.abs(verticesWithEdges(z) - hit) / hit).toBeLessThan(0.005);
  });

  it('predicts the head: vertices over a degree threshold and their edges', () => {
    for (const threshold of [100, 1_000]) {
      const over = [...degree].filter((d) => d >= threshold);
      expect(Math.abs(verticesWithDegreeAtLeast(z, threshold) - over.length)).toBeLessThanOrEqual(Math.max(2, over.length * 0.05));
      const edges = over.reduce((a, d) => a + d, 0);
      expect(Math.abs(edgesOfVerticesWithDegreeAtLeast(z, threshold) - edges) / edges).toBeLessThan(0.05);
    }
    expect(Math.abs(degreeAtRank(z, 1) - degree[0]!) / degree[0]!).toBeLessThan(0.02);
  });

  it('predicts the size-biased degree (a traversal frontier) within 2 %', () => {
    let sq = 0;
    for (const d of degree) sq += d * d;
    expect(Math.abs(sizeBiasedMeanDegree(z) - sq / E) / (sq / E)).toBeLessThan(0.02);
  });
});

describe('verticesWithEdges', () => {
  it('never exceeds the vertices or the edges and grows with the edges', () => {
    fc.assert(
      fc.property(fc.double({ min: 1, max: 1e11, noNaN: true }), fc.double({ min: 1, max: 1e13, noNaN: true }), fc.double({ min: 1.01, max: 10, noNaN: true }), fc.double({ min: 0.2, max: 2, noNaN: true }), (v, e, more, s) => {
        const vertices = Math.floor(v);
        const a = verticesWithEdges(zipfDegrees(vertices, e, s));
        const b = verticesWithEdges(zipfDegrees(vertices, e * more, s));
        expect(a).toBeLessThanOrEqual(Math.min(vertices, e) * (1 + 1e-9));
        expect(b).toBeGreaterThanOrEqual(a * (1 - 1e-9));
      }),
      { numRuns: 60 },
    );
  });
});
