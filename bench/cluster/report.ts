import { fmt, median, round, type AcrossRepeats } from '../ingest/stats.ts';
import type { codeVersion, machine } from '../shared/benchEnvironment.ts';
import type { StackLabel } from '../shared/benchStack.ts';
import type { StackChoice } from '../shared/stackChoice.ts';
import type { ClusterBench, ClusterBenchArgs } from './args.ts';
import { compareStacks, type ComparisonRow } from './comparison.ts';
import type { Figure } from './figures.ts';

/** One child bench run as bench:cluster saw it. */
export interface ChildRun {
  readonly bench: ClusterBench;
  readonly repeat: number;
  readonly stack: StackChoice;
  readonly argv: readonly string[];
  /** Its result JSON, relative to the repo. */
  readonly file: string;
  readonly seconds: number;
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** The CPU the stack not under test used meanwhile (both stay up): its servers' cores, their sum, the machine's busy cores. */
  readonly idleStack: { readonly stack: StackChoice; readonly coresByServer: Readonly<Record<string, number>>; readonly cores: number; readonly machineBusyCores: number };
  /** The commit the child measured and whether its tree was clean (from its result JSON). */
  readonly code?: { readonly commit: string; readonly cleanTree: boolean };
  readonly figures: readonly Figure[];
  /** Why no figures were read (exit status, unreadable result). */
  readonly problem?: string;
}

/** What keyspaces (`bench_*`) and topics (`bench.*`) each stack held before the first child and after the last. */
export interface Residue {
  readonly before: { readonly keyspaces: readonly string[]; readonly topics: readonly string[] };
  readonly after: { readonly keyspaces: readonly string[]; readonly topics: readonly string[] };
}

const METHOD = {
  stacks:
    'both stay up for the whole run: the single-node stack (resolveStack with EDGESTREAM_STACK=local: one Cassandra node, one broker, the registry) and the local 3-node cluster (stack/clusterStack: 3 Cassandra nodes, 3 KRaft brokers, the registry, 127.0.0.1-3); bench:cluster starts either if needed and stops only what it started',
  children:
    'each bench runs as a child process (node bench/<bench>/main.ts --stack single|cluster --out <file>, default sizes of bench/cluster/runPlan.ts plus the --<bench>-arg flags); on the cluster the run\'s keyspaces (the pipeline\'s and the raw driver\'s) are at NetworkTopologyStrategy {datacenter1: 3}, its topics at RF 3 / min.insync.replicas 2, the store and the raw driver at LOCAL_QUORUM (bench/shared/benchStack.ts); on the single node at RF 1 and the same levels',
  order: 'repeat by repeat, each bench on both stacks back to back, the first of the two rotating per repeat (single first in odd repeats)',
  figures: 'read from each child\'s result JSON (bench/cluster/figures.ts): medians of the child\'s own repeats; ref = the raw cassandra-driver doing the same work in the same child run (bench:ingest ceilings, bench:reads raw reads), or for bench:wide the same read before the split',
  ratios: 'ratio = value ÷ ref of the same child run; cluster/single = cluster value ÷ single value of the same repeat; each reported per repeat with its median and spread',
  idleStack: 'CPU of the other stack\'s server processes (/proc/<pid>/stat, a cluster\'s nodes summed) over each child run: the cost of keeping both up',
};

export function buildClusterResult(o: {
  readonly args: ClusterBenchArgs;
  readonly started: Date;
  readonly machine: ReturnType<typeof machine>;
  readonly code: ReturnType<typeof codeVersion>;
  readonly stacks: Readonly<Record<StackChoice, StackLabel>>;
  readonly runs: readonly ChildRun[];
  readonly residue: Readonly<Record<StackChoice, Residue>>;
}) {
  const measured = o.runs.filter((r) => r.problem === undefined);
  return {
    benchmark: 'bench:cluster',
    date: o.started.toISOString(),
    durationSeconds: Math.round((Date.now() - o.started.getTime()) / 1000),
    machine: o.machine,
    code: o.code,
    method: METHOD,
    args: o.args,
    stacks: o.stacks,
    comparison: compareStacks(measured.map((r) => ({ stack: r.stack, repeat: r.repeat, figures: r.figures }))),
    idleStackCores: idleStackCores(o.runs),
    runs: o.runs,
    failed: o.runs.filter((r) => r.problem !== undefined).map((r) => `${r.bench} ${r.stack} r${r.repeat}: ${r.problem}`),
    residue: o.residue,
  };
}

export type ClusterBenchResult = ReturnType<typeof buildClusterResult>;

/** Per bench and stack under test: the median cores the other (idle) stack used during those runs. */
export function idleStackCores(runs: readonly ChildRun[]) {
  const groups = new Map<string, ChildRun[]>();
  for (const r of runs) {
    const k = `${r.bench}:${r.stack}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  return [...groups.values()].map((rs) => {
    const first = rs[0] as ChildRun;
    const servers = [...new Set(rs.flatMap((r) => Object.keys(r.idleStack.coresByServer)))];
    return {
      bench: first.bench,
      underTest: first.stack,
      idle: first.idleStack.stack,
      cores: round(median(rs.map((r) => r.idleStack.cores)), 2),
      coresByServer: Object.fromEntries(servers.map((s) => [s, round(median(rs.map((r) => r.idleStack.coresByServer[s] ?? 0)), 2)])),
    };
  });
}

/** A value at a precision that fits its size. */
const num = (x: number | undefined): string => (x === undefined || !Number.isFinite(x) ? '-' : fmt(x, Math.abs(x) >= 100 ? 0 : Math.abs(x) >= 10 ? 1 : 2));
const ratio = (a: AcrossRepeats | undefined): string => (a === undefined ? '-' : `×${fmt(a.median, 2)}`);

/** The comparison as text columns: per figure, each stack's value, reference and ratio (medians), then cluster/single. */
export function comparisonTable(rows: readonly ComparisonRow[]): string[] {
  const header = ['figure', 'unit', 'single', 'ref', 'ratio', 'cluster', 'ref', 'ratio', 'cluster/single'];
  const body = rows.map((r) => [r.label, r.unit, num(r.single.value?.median), num(r.single.ref?.median), ratio(r.single.ratio), num(r.cluster.value?.median), num(r.cluster.ref?.median), ratio(r.cluster.ratio), ratio(r.clusterOverSingle)]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] as string).length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ').trimEnd();
  return [line(header), ...body.map(line)];
}

export function printClusterSummary(r: ClusterBenchResult, write: (text: string) => void): void {
  const lines = [
    '',
    `bench:cluster — ${r.machine.cores} cores; code ${r.code.commit.slice(0, 12)}${r.code.cleanTree ? ' (clean tree)' : ' (tree NOT clean)'}; ${r.durationSeconds} s in all`,
    `  single  ${r.stacks.single.summary}`,
    `  cluster ${r.stacks.cluster.summary}`,
    `  medians over the repeats; ratio = value ÷ ref of the same run; cluster/single paired by repeat (every repeat in the JSON)`,
    '',
    ...comparisonTable(r.comparison).map((l) => `  ${l}`),
    '',
    '  runs:',
    ...r.runs.map(
      (x) =>
        `    ${x.bench} ${x.stack.padEnd(7)} r${x.repeat}: ${x.seconds} s${x.problem ? `, ${x.problem}` : ''}${x.code ? `, code ${x.code.commit.slice(0, 12)}${x.code.cleanTree ? '' : ' (tree NOT clean)'}` : ''}; idle ${x.idleStack.stack} stack meanwhile ${x.idleStack.cores} cores (${Object.entries(x.idleStack.coresByServer).map(([k, v]) => `${k} ${v}`).join(', ')}), machine busy ${x.idleStack.machineBusyCores}`,
    ),
    ...r.failed.map((f) => `  FAILED ${f}`),
    ...(['single', 'cluster'] as const).flatMap((s) => {
      const left = (k: 'keyspaces' | 'topics') => r.residue[s].after[k].filter((x) => !r.residue[s].before[k].includes(x));
      const extra = [...left('keyspaces'), ...left('topics')];
      return extra.length > 0 ? [`  LEFT BEHIND on the ${s} stack: ${extra.join(', ')}`] : [];
    }),
  ];
  write(`${lines.join('\n')}\n`);
}
