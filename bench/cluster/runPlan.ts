import path from 'node:path';
import { STACK_CHOICES, type StackChoice } from '../shared/stackChoice.ts';
import type { ClusterBench, ClusterBenchArgs } from './args.ts';

/** One child bench run of bench:cluster. */
export interface PlannedRun {
  readonly bench: ClusterBench;
  readonly repeat: number;
  readonly stack: StackChoice;
}

/**
 * Every child run in order: repeat by repeat, each bench (while it has repeats left) on both
 * stacks, the first of the two rotating per repeat (single, cluster; then cluster, single; …),
 * so neither stack always runs on the machine the other just warmed (or cluttered).
 */
export function runPlan(benches: readonly ClusterBench[], repeatsOf: (bench: ClusterBench) => number): PlannedRun[] {
  const most = Math.max(0, ...benches.map(repeatsOf));
  const plan: PlannedRun[] = [];
  for (let repeat = 1; repeat <= most; repeat++) {
    const shift = (repeat - 1) % STACK_CHOICES.length;
    const stacks = [...STACK_CHOICES.slice(shift), ...STACK_CHOICES.slice(0, shift)];
    for (const bench of benches) if (repeat <= repeatsOf(bench)) for (const stack of stacks) plan.push({ bench, repeat, stack });
  }
  return plan;
}

export const repeatsOf = (args: ClusterBenchArgs) => (bench: ClusterBench): number => (bench === 'wide' ? args.wideRepeats : args.repeats);

/**
 * What each child runs by default besides its size: sizes that fit the whole command in about
 * 40 minutes on 2 cores (README "Sizes"); `--<bench>-arg` flags come after them and win.
 */
export const CHILD_DEFAULTS: Readonly<Record<ClusterBench, readonly string[]>> = {
  // One ceiling level each (the single node's best at 200 000 events): a sweep would double the ceilings' time.
  ingest: ['--repeats', '1', '--skip-latency', '--batched-levels', '12', '--ceiling-levels', '256', '--ceiling-sweep-rows', '5000'],
  reads: ['--repeats', '1', '--samples', '200', '--cold-pages', '50', '--starts', '100', '--rate', '100', '--http-seconds', '5'],
  wide: ['--churn-links', '50000', '--bloom-calls', '10000'],
};

const sizeFlags = (bench: ClusterBench, a: ClusterBenchArgs): string[] =>
  bench === 'ingest' ? ['--events', String(a.events)] : bench === 'reads' ? ['--followers', String(a.followers), '--users', String(a.users)] : ['--links', String(a.links)];

/** The child's result file, relative to the repo. */
export const childResultFile = (run: PlannedRun, childrenDir: string): string => path.join(childrenDir, `${run.bench}-${run.stack}-r${run.repeat}.json`);

/** The child's arguments after `node`: its entry, the defaults, the size, the extra flags, then --stack and --out (last: they always win). */
export function childArgv(run: PlannedRun, a: ClusterBenchArgs): string[] {
  return [`bench/${run.bench}/main.ts`, ...CHILD_DEFAULTS[run.bench], ...sizeFlags(run.bench, a), ...a.extra[run.bench], '--stack', run.stack, '--out', childResultFile(run, a.childrenDir)];
}
