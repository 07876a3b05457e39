import { describe, expect, it } from 'vitest';
import { compareStacks, type Observation } from './comparison.ts';

const obs = (stack: 'single' | 'cluster', repeat: number, value: number | undefined, ref?: number): Observation => ({ stack, repeat, figures: [{ key: 'k', label: 'edges/s', unit: 'edges/s', value, ref }] });

describe('compareStacks', () => {
  it('gives each stack its values, references and per-run ratios, and cluster ÷ single paired by repeat', () => {
    const [row] = compareStacks([obs('single', 1, 1000, 2000), obs('cluster', 1, 400, 1000), obs('cluster', 2, 300, 500), obs('single', 2, 900, 1000)]);
    expect(row?.single.value?.repeats).toEqual([1000, 900]);
    expect(row?.single.ratio?.repeats).toEqual([0.5, 0.9]);
    expect(row?.single.ratio?.median).toBe(0.7);
    expect(row?.cluster.ref?.median).toBe(750);
    expect(row?.cluster.ratio?.repeats).toEqual([0.4, 0.6]);
    // 400/1000 and 300/900: each repeat's cluster run against the single run beside it, not medians against medians.
    expect(row?.clusterOverSingle?.repeats).toEqual([0.4, 0.333]);
    expect(row?.clusterOverSingle?.median).toBe(0.367);
  });

  it('leaves out what was not measured: no reference, a stack that did not run, a repeat only one stack finished', () => {
    const [row] = compareStacks([obs('single', 1, 10), obs('single', 2, 20), obs('cluster', 2, 30)]);
    expect(row?.single.ref).toBeUndefined();
    expect(row?.single.ratio).toBeUndefined();
    expect(row?.clusterOverSingle?.repeats).toEqual([1.5]);
    const [alone] = compareStacks([obs('single', 1, 10, 5)]);
    expect(alone?.cluster).toEqual({});
    expect(alone?.clusterOverSingle).toBeUndefined();
  });

  it('keeps the figures in the order first seen and skips values that are not numbers', () => {
    const rows = compareStacks([
      { stack: 'single', repeat: 1, figures: [{ key: 'b', label: 'B', unit: '', value: 1 }, { key: 'a', label: 'A', unit: '', value: Number.NaN }] },
      { stack: 'cluster', repeat: 1, figures: [{ key: 'c', label: 'C', unit: '', value: 2 }] },
    ]);
    expect(rows.map((r) => r.key)).toEqual(['b', 'a', 'c']);
    expect(rows[1]?.single.value).toBeUndefined();
  });
});
