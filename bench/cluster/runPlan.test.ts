import { describe, expect, it } from 'vitest';
import { parseClusterBenchArgs } from './args.ts';
import { childArgv, repeatsOf, runPlan } from './runPlan.ts';

const order = (args: string[]) => {
  const a = parseClusterBenchArgs(args);
  return runPlan(a.benches, repeatsOf(a)).map((p) => `${p.bench}/${p.stack}/r${p.repeat}`);
};

describe('runPlan', () => {
  it('runs each bench on both stacks back to back, the first of the two rotating per repeat', () => {
    expect(order(['--benches', 'ingest,reads', '--repeats', '3'])).toEqual([
      'ingest/single/r1', 'ingest/cluster/r1', 'reads/single/r1', 'reads/cluster/r1',
      'ingest/cluster/r2', 'ingest/single/r2', 'reads/cluster/r2', 'reads/single/r2',
      'ingest/single/r3', 'ingest/cluster/r3', 'reads/single/r3', 'reads/cluster/r3',
    ]);
  });

  it('gives bench:wide its own number of repeats', () => {
    expect(order(['--repeats', '2', '--wide-repeats', '1'])).toEqual([
      'ingest/single/r1', 'ingest/cluster/r1', 'reads/single/r1', 'reads/cluster/r1', 'wide/single/r1', 'wide/cluster/r1',
      'ingest/cluster/r2', 'ingest/single/r2', 'reads/cluster/r2', 'reads/single/r2',
    ]);
    expect(order(['--benches', 'wide', '--repeats', '1', '--wide-repeats', '2'])).toEqual(['wide/single/r1', 'wide/cluster/r1', 'wide/cluster/r2', 'wide/single/r2']);
  });
});

describe('childArgv', () => {
  it('puts the defaults first, then the size and the extra flags, and --stack and --out last so they always win', () => {
    const a = parseClusterBenchArgs(['--events', '5000', '--ingest-arg=--repeats=2', '--ingest-arg=--stack=single', '--children-dir', '/tmp/c']);
    const argv = childArgv({ bench: 'ingest', repeat: 2, stack: 'cluster' }, a);
    expect(argv[0]).toBe('bench/ingest/main.ts');
    expect(argv.slice(-4)).toEqual(['--stack', 'cluster', '--out', '/tmp/c/ingest-cluster-r2.json']);
    const at = (flag: string) => argv.indexOf(flag);
    expect(at('--repeats')).toBeLessThan(at('--repeats=2'));
    expect(argv[at('--events') + 1]).toBe('5000');
    expect(at('--stack=single')).toBeLessThan(at('--stack'));
  });

  it('passes each bench its own size flags', () => {
    const a = parseClusterBenchArgs(['--followers', '2000', '--users', '300', '--links', '4000']);
    const reads = childArgv({ bench: 'reads', repeat: 1, stack: 'single' }, a);
    expect(reads.slice(reads.indexOf('--followers'), reads.indexOf('--followers') + 4)).toEqual(['--followers', '2000', '--users', '300']);
    const wide = childArgv({ bench: 'wide', repeat: 1, stack: 'single' }, a);
    expect(wide[wide.indexOf('--links') + 1]).toBe('4000');
    expect(wide).not.toContain('--events');
  });
});
