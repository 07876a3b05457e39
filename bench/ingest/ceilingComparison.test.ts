import { describe, expect, it } from 'vitest';
import { ceilingComparison } from './ceilingComparison.ts';

describe('ceilingComparison', () => {
  it('reports every repeat of the pipeline and both ceilings, and both ratios paired by repeat', () => {
    const c = ceilingComparison([
      { repeat: 2, pipelineEdgesPerSecond: 900, batchedEdgesPerSecond: 1_000, unbatchedEdgesPerSecond: 600 },
      { repeat: 1, pipelineEdgesPerSecond: 600, batchedEdgesPerSecond: 1_200, unbatchedEdgesPerSecond: 500 },
      { repeat: 3, pipelineEdgesPerSecond: 800, batchedEdgesPerSecond: 1_000, unbatchedEdgesPerSecond: 400 },
    ]);
    expect(c.pipelineEdgesPerSecond).toMatchObject({ repeats: [600, 900, 800], median: 800 });
    expect(c.batchedCeilingEdgesPerSecond).toMatchObject({ repeats: [1_200, 1_000, 1_000], median: 1_000, spreadPct: 20 });
    expect(c.pipelineOverBatched?.repeats).toEqual([0.5, 0.9, 0.8]);
    expect(c.pipelineOverBatched?.median).toBe(0.8);
    expect(c.pipelineOverUnbatched?.repeats).toEqual([1.2, 1.5, 2]);
  });

  it('leaves a ceiling out when no repeat measured it', () => {
    const c = ceilingComparison([{ repeat: 1, pipelineEdgesPerSecond: 500, batchedEdgesPerSecond: 1_000, unbatchedEdgesPerSecond: undefined }]);
    expect(c.unbatchedCeilingEdgesPerSecond).toBeUndefined();
    expect(c.pipelineOverUnbatched).toBeUndefined();
    expect(c.pipelineOverBatched?.repeats).toEqual([0.5]);
  });
});
