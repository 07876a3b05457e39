import { parseArgs } from 'node:util';
import { intFlag } from '../shared/intFlag.ts';
import { parseStackChoice, type StackChoice } from '../shared/stackChoice.ts';

/** Flags of `bench:wide`. Every default is the committed bench configuration. */
export interface WideBenchArgs {
  /** Reverse links of celebrity A (all ACTIVE). */
  readonly links: number;
  /** ADD_EDGEs to celebrity B, of which `churnRemoveRatio` are later removed. */
  readonly churnLinks: number;
  readonly churnRemoveRatio: number;
  /** Newest-page latency samples per celebrity and phase. */
  readonly samples: number;
  /** Newest-page size of the latency samples. */
  readonly pageLimit: number;
  /** Page size of the full scans. */
  readonly scanPage: number;
  /** mightHaveRecord calls timed for the Bloom filter cost. */
  readonly bloomCalls: number;
  /** Events per mutateMany call of the load, and calls in flight. */
  readonly loadBatch: number;
  readonly loadConcurrency: number;
  /** Give up on the split chain after this long. */
  readonly splitTimeoutMinutes: number;
  readonly seed: number;
  readonly keep: boolean;
  /** single (default) or cluster: the local 3-node cluster at RF 3 and LOCAL_QUORUM (bench/shared/benchStack). */
  readonly stack: StackChoice;
  readonly out: string | undefined;
  readonly help: boolean;
}

export const DEFAULT_LINKS = 1_000_000;
export const DEFAULT_CHURN_LINKS = 200_000;

export const USAGE = `npm run bench:wide -- [flags]

Wide-partition benchmark: loads a celebrity with many reverse links and one with heavy
unfollow churn straight into Cassandra (rows made by the real fan-out processor),
measures newest-page latency and a full paginated scan, lets the read counters detect
the wide partitions and the plan → split → verify chain split them, then measures the
same reads through the split-aware reader.

  --links <n>                reverse links of celebrity A (default ${DEFAULT_LINKS})
  --churn-links <n>          ADD_EDGEs to celebrity B (default ${DEFAULT_CHURN_LINKS})
  --churn-remove-ratio <f>   share of B's follows later removed (default 0.9)
  --samples <n>              newest-page latency samples per celebrity and phase (default 200)
  --page-limit <n>           newest-page size (default 50)
  --scan-page <n>            page size of the full scans (default 1000)
  --bloom-calls <n>          Bloom filter checks timed (default 1000000)
  --load-batch <n>           events per mutateMany call while loading (default 128)
  --load-concurrency <n>     mutateMany calls in flight while loading (default 24)
  --split-timeout-minutes <n> give up on the chain after this long (default 60)
  --seed <n>                 which of B's follows are removed (default 1)
  --keep                     keep the keyspace and topics (default: drop/delete them)
  --stack <single|cluster>   single: the stack every command finds, at RF 1 (default); cluster: the local
                             3-node cluster (started if needed, stopped again if this run started it), the
                             keyspace at RF 3 NetworkTopologyStrategy, topics at RF 3 / min.insync.replicas 2,
                             LOCAL_QUORUM reads and writes
  --out <file>               result JSON (default bench/results/wide-latest.json for the default
                             sizes or larger, else bench/results/wide-small.json; wide-cluster-… with
                             --stack cluster)
`;

export function parseWideArgs(argv: readonly string[]): WideBenchArgs {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      links: { type: 'string' },
      'churn-links': { type: 'string' },
      'churn-remove-ratio': { type: 'string' },
      samples: { type: 'string' },
      'page-limit': { type: 'string' },
      'scan-page': { type: 'string' },
      'bloom-calls': { type: 'string' },
      'load-batch': { type: 'string' },
      'load-concurrency': { type: 'string' },
      'split-timeout-minutes': { type: 'string' },
      seed: { type: 'string' },
      keep: { type: 'boolean', default: false },
      stack: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const int = intFlag;
  const ratio = values['churn-remove-ratio'] === undefined ? 0.9 : Number(values['churn-remove-ratio']);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio >= 1) throw new Error(`--churn-remove-ratio must be in [0, 1), got "${values['churn-remove-ratio']}"`);
  return {
    links: int('links', values.links, DEFAULT_LINKS, 100),
    churnLinks: int('churn-links', values['churn-links'], DEFAULT_CHURN_LINKS, 100),
    churnRemoveRatio: ratio,
    samples: int('samples', values.samples, 200),
    pageLimit: int('page-limit', values['page-limit'], 50, 1, 1_000),
    scanPage: int('scan-page', values['scan-page'], 1_000, 1, 1_000),
    bloomCalls: int('bloom-calls', values['bloom-calls'], 1_000_000),
    loadBatch: int('load-batch', values['load-batch'], 128),
    loadConcurrency: int('load-concurrency', values['load-concurrency'], 24),
    splitTimeoutMinutes: int('split-timeout-minutes', values['split-timeout-minutes'], 60),
    seed: int('seed', values.seed, 1, 0),
    keep: values.keep ?? false,
    stack: parseStackChoice(values.stack),
    out: values.out,
    help: values.help ?? false,
  };
}
