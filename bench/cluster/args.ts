import { parseArgs } from 'node:util';
import { intFlag } from '../shared/intFlag.ts';

/** The benches bench:cluster runs on both stacks, in this order within a repeat. */
export const CLUSTER_BENCHES = ['ingest', 'reads', 'wide'] as const;
export type ClusterBench = (typeof CLUSTER_BENCHES)[number];

/** Flags of `bench:cluster`. The defaults fit the whole command in about 40 minutes on 2 cores. */
export interface ClusterBenchArgs {
  readonly benches: readonly ClusterBench[];
  /** Stack pairs (single + cluster) of bench:ingest and bench:reads. */
  readonly repeats: number;
  /** Stack pairs of bench:wide (its load and split are the longest). */
  readonly wideRepeats: number;
  /** bench:ingest --events. */
  readonly events: number;
  /** bench:reads --followers and --users. */
  readonly followers: number;
  readonly users: number;
  /** bench:wide --links. */
  readonly links: number;
  /** Extra flags for every child of a bench (after the defaults, so they override them). */
  readonly extra: Readonly<Record<ClusterBench, readonly string[]>>;
  /** Where each child's result JSON goes (relative to the repo), and the comparison's. */
  readonly childrenDir: string;
  readonly out: string;
  readonly help: boolean;
}

export const DEFAULTS = { repeats: 2, wideRepeats: 1, events: 60_000, followers: 100_000, users: 10_000, links: 1_000_000 } as const;

export const USAGE = `npm run bench:cluster -- [flags]

The single-node stack against the local 3-node cluster (RF 3, LOCAL_QUORUM,
min.insync.replicas 2) in the same run: both stacks stay up, and bench:ingest,
bench:reads and bench:wide run as child processes with --stack single and
--stack cluster, the order of the two alternating per repeat (single first in odd
repeats). Each child's result JSON is read back into one comparison: every figure
on each stack beside its reference (the raw cassandra-driver doing the same work;
for bench:wide the same read before the split), their ratio, and cluster/single.

  --benches <list>       which benches, comma-separated (default ingest,reads,wide)
  --repeats <n>          stack pairs of bench:ingest and bench:reads (default ${DEFAULTS.repeats})
  --wide-repeats <n>     stack pairs of bench:wide (default ${DEFAULTS.wideRepeats})
  --events <n>           bench:ingest --events (default ${DEFAULTS.events}; one repeat per child,
                         no latency phase, the batched ceiling at 12 chunks and the unbatched at 256)
  --followers <n>        bench:reads --followers (default ${DEFAULTS.followers})
  --users <n>            bench:reads --users (default ${DEFAULTS.users}; one repeat per child, reduced samples)
  --links <n>            bench:wide --links (default ${DEFAULTS.links}; --churn-links 50000)
  --ingest-arg <flag>    an extra flag for every bench:ingest child, written with "=":
                         --ingest-arg=--skip-ceiling, --ingest-arg=--batched-levels=6,12,24 (repeatable)
  --reads-arg <flag>     the same for bench:reads, e.g. --reads-arg=--repeats=3
  --wide-arg <flag>      the same for bench:wide, e.g. --wide-arg=--churn-links=200000
  --children-dir <dir>   the children's result JSONs (default bench/results/cluster)
  --out <file>           the comparison (default bench/results/cluster-latest.json)
`;

export function parseClusterBenchArgs(argv: readonly string[]): ClusterBenchArgs {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      benches: { type: 'string' },
      repeats: { type: 'string' },
      'wide-repeats': { type: 'string' },
      events: { type: 'string' },
      followers: { type: 'string' },
      users: { type: 'string' },
      links: { type: 'string' },
      'ingest-arg': { type: 'string', multiple: true },
      'reads-arg': { type: 'string', multiple: true },
      'wide-arg': { type: 'string', multiple: true },
      'children-dir': { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const benches = (values.benches ?? CLUSTER_BENCHES.join(',')).split(',').map((b) => b.trim());
  const unknown = benches.filter((b) => !(CLUSTER_BENCHES as readonly string[]).includes(b));
  if (unknown.length > 0 || benches.length === 0) throw new Error(`--benches: expected some of ${CLUSTER_BENCHES.join(', ')}, got "${values.benches}"`);
  const passThrough = (name: string, flags: readonly string[] | undefined): string[] => {
    for (const f of flags ?? []) if (!f.startsWith('--')) throw new Error(`--${name}: expected a flag such as --${name}=--repeats=2, got "${f}"`);
    return [...(flags ?? [])];
  };
  return {
    // In the fixed order, each once: the order inside a repeat does not depend on how they were listed.
    benches: CLUSTER_BENCHES.filter((b) => benches.includes(b)),
    repeats: intFlag('repeats', values.repeats, DEFAULTS.repeats),
    wideRepeats: intFlag('wide-repeats', values['wide-repeats'], DEFAULTS.wideRepeats),
    events: intFlag('events', values.events, DEFAULTS.events, 100),
    followers: intFlag('followers', values.followers, DEFAULTS.followers, 100),
    users: intFlag('users', values.users, DEFAULTS.users, 100),
    links: intFlag('links', values.links, DEFAULTS.links, 100),
    extra: { ingest: passThrough('ingest-arg', values['ingest-arg']), reads: passThrough('reads-arg', values['reads-arg']), wide: passThrough('wide-arg', values['wide-arg']) },
    childrenDir: values['children-dir'] ?? 'bench/results/cluster',
    out: values.out ?? 'bench/results/cluster-latest.json',
    help: values.help ?? false,
  };
}
