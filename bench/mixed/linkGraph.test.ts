import { describe, expect, it } from 'vitest';
import { createLinkGraph, MAX_DATA_BYTES, MIN_DATA_BYTES, vertexId, type LinkGraphSpec } from './linkGraph.ts';

const spec: LinkGraphSpec = { ids: 2_000, meanDegree: 9, degreeExponent: 0.8, seed: 7, loadTime: 1_700_000_000_000_000n, timeSpanMicros: 86_400_000_000n };

describe('createLinkGraph', () => {
  const graph = createLinkGraph(spec);

  it('has the asked mean out-degree and degrees that fall with rank', () => {
    expect(graph.totalLinks / spec.ids).toBeGreaterThan(8.5);
    expect(graph.totalLinks / spec.ids).toBeLessThan(9.5);
    expect(graph.maxDegree).toBe(graph.degree(0));
    expect(graph.degree(0)).toBeGreaterThan(graph.degree(10));
    expect(graph.degree(10)).toBeGreaterThan(graph.degree(1_999));
    expect([...graph.allLinks()]).toHaveLength(graph.totalLinks);
  });

  it('gives each source distinct destinations other than itself, times in the span and 32–100 bytes of data', () => {
    for (const v of [0, 1, 17, 1_999]) {
      const links = [...graph.linksOf(v)];
      expect(links).toHaveLength(graph.degree(v));
      expect(new Set(links.map((l) => l.dst)).size).toBe(links.length);
      for (const l of links) {
        expect(l.src).toBe(vertexId(v));
        expect(l.dst).not.toBe(l.src);
        expect(l.time < spec.loadTime && l.time >= spec.loadTime - spec.timeSpanMicros).toBe(true);
        expect(l.data.length).toBeGreaterThanOrEqual(MIN_DATA_BYTES);
        expect(l.data.length).toBeLessThanOrEqual(MAX_DATA_BYTES);
      }
    }
  });

  it('rebuilds any link from (seed, v, j) alone: the same graph for the same seed, another for another seed', () => {
    const again = createLinkGraph(spec);
    const link = graph.linkAt(3, 5);
    expect(again.linkAt(3, 5)).toEqual(link);
    expect([...graph.linksOf(3)][5]).toEqual(link);
    expect(createLinkGraph({ ...spec, seed: 8 }).linkAt(3, 5)).not.toEqual(link);
  });

  it('caps a degree at ids − 1 and still keeps the destinations distinct', () => {
    const tiny = createLinkGraph({ ...spec, ids: 5, meanDegree: 4 });
    for (let v = 0; v < 5; v++) {
      const dsts = [...tiny.linksOf(v)].map((l) => l.dst);
      expect(dsts.length).toBeLessThanOrEqual(4);
      expect(new Set(dsts).size).toBe(dsts.length);
      expect(dsts).not.toContain(vertexId(v));
    }
  });
});
