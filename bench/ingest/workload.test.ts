import { describe, expect, it } from 'vitest';
import { benchTables, rowsOfAddEdge, rowsPerEdge } from './workload.ts';

describe('rowsOfAddEdge', () => {
  it('gives only the answer’s cells (links, index entries, properties), not the degree intents the fan-out also writes', () => {
    const edge = { src: 'user-1', dst: 'user-0', properties: { via: 'bench' } };
    const rows = rowsOfAddEdge('follows', edge, 'm-1', 1_000n);
    expect(rows).toHaveLength(rowsPerEdge(edge));
    expect(new Set(rows.map((r) => r.table))).toEqual(new Set(benchTables('follows')));
    expect(rows.every((r) => r.writeTime === 1_000n)).toBe(true);
  });
});
