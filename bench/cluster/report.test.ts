import { describe, expect, it } from 'vitest';
import { compareStacks } from './comparison.ts';
import { comparisonTable, idleStackCores, type ChildRun } from './report.ts';

const run = (bench: 'ingest' | 'wide', stack: 'single' | 'cluster', repeat: number, coresByServer: Record<string, number>): ChildRun => ({
  bench,
  repeat,
  stack,
  argv: [],
  file: `x-${stack}-${repeat}.json`,
  seconds: 1,
  exitCode: 0,
  signal: null,
  idleStack: { stack: stack === 'single' ? 'cluster' : 'single', coresByServer, cores: Object.values(coresByServer).reduce((a, b) => a + b, 0), machineBusyCores: 1.9 },
  figures: [],
});

describe('comparisonTable', () => {
  it('prints each stack’s median value, reference and ratio, then cluster/single', () => {
    const rows = compareStacks([
      { stack: 'single', repeat: 1, figures: [{ key: 'e', label: 'ingest edges/s', unit: 'edges/s', value: 1302, ref: 2401 }, { key: 's', label: 'split', unit: 's', value: 9.5 }] },
      { stack: 'cluster', repeat: 1, figures: [{ key: 'e', label: 'ingest edges/s', unit: 'edges/s', value: 651, ref: 1600 }, { key: 's', label: 'split', unit: 's', value: 19 }] },
    ]);
    const [header, edges, split] = comparisonTable(rows);
    expect(header?.split(/\s{2,}/)).toEqual(['figure', 'unit', 'single', 'ref', 'ratio', 'cluster', 'ref', 'ratio', 'cluster/single']);
    expect(edges?.split(/\s{2,}/)).toEqual(['ingest edges/s', 'edges/s', '1,302', '2,401', '×0.54', '651', '1,600', '×0.41', '×0.50']);
    expect(split?.split(/\s{2,}/)).toEqual(['split', 's', '9.50', '-', '-', '19.0', '-', '-', '×2.00']);
    // Columns line up: every line is as wide as the header.
    expect(new Set([header, edges, split].map((l) => l?.length)).size).toBe(1);
  });
});

describe('idleStackCores', () => {
  it('takes, per bench and stack under test, the median cores of the idle stack, per server too', () => {
    const idle = idleStackCores([
      run('ingest', 'single', 1, { cassandra: 0.3, kafka: 0.1 }),
      run('ingest', 'cluster', 1, { cassandra: 0.05 }),
      run('ingest', 'single', 2, { cassandra: 0.1, kafka: 0.1, registry: 0.02 }),
    ]);
    expect(idle).toEqual([
      { bench: 'ingest', underTest: 'single', idle: 'cluster', cores: 0.31, coresByServer: { cassandra: 0.2, kafka: 0.1, registry: 0.01 } },
      { bench: 'ingest', underTest: 'cluster', idle: 'single', cores: 0.05, coresByServer: { cassandra: 0.05 } },
    ]);
  });
});
