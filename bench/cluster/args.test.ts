import { describe, expect, it } from 'vitest';
import { DEFAULTS, parseClusterBenchArgs } from './args.ts';

describe('parseClusterBenchArgs', () => {
  it('defaults to every bench, the committed sizes and the default files', () => {
    const a = parseClusterBenchArgs([]);
    expect(a.benches).toEqual(['ingest', 'reads', 'wide']);
    expect([a.repeats, a.wideRepeats, a.events, a.followers, a.users, a.links]).toEqual([DEFAULTS.repeats, DEFAULTS.wideRepeats, DEFAULTS.events, DEFAULTS.followers, DEFAULTS.users, DEFAULTS.links]);
    expect(a.extra).toEqual({ ingest: [], reads: [], wide: [] });
    expect([a.childrenDir, a.out]).toEqual(['bench/results/cluster', 'bench/results/cluster-latest.json']);
  });

  it('keeps the benches in their fixed order, each once, however they were listed', () => {
    expect(parseClusterBenchArgs(['--benches', 'wide, ingest,wide']).benches).toEqual(['ingest', 'wide']);
  });

  it('takes sizes with underscores and the extra flags of each bench', () => {
    const a = parseClusterBenchArgs(['--events', '5_000', '--links=200000', '--repeats', '3', '--ingest-arg=--skip-ceiling', '--ingest-arg=--batched-levels=6,24', '--wide-arg=--churn-links=1000']);
    expect([a.events, a.links, a.repeats]).toEqual([5_000, 200_000, 3]);
    expect(a.extra).toEqual({ ingest: ['--skip-ceiling', '--batched-levels=6,24'], reads: [], wide: ['--churn-links=1000'] });
  });

  it('names the flag of a bad value', () => {
    expect(() => parseClusterBenchArgs(['--benches', 'ingest,counts'])).toThrow(/--benches: expected some of ingest, reads, wide/);
    expect(() => parseClusterBenchArgs(['--repeats', '0'])).toThrow(/--repeats must be an integer/);
    expect(() => parseClusterBenchArgs(['--events', '50'])).toThrow(/--events must be an integer in \[100/);
    expect(() => parseClusterBenchArgs(['--reads-arg=repeats'])).toThrow(/--reads-arg: expected a flag/);
    expect(() => parseClusterBenchArgs(['--stack', 'cluster'])).toThrow(/stack/);
  });
});
