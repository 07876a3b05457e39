import { parseArgs } from 'node:util';
import { intFlag } from '../shared/intFlag.ts';
import { parseStackChoice, type StackChoice } from '../shared/stackChoice.ts';
import type { LinkDirection } from '../../sinks/namespaces/index.ts';

/** Flags of `bench:reads`. Every default is the committed bench configuration. */
export interface ReadsBenchArgs {
  /** Followers of the celebrity (all ACTIVE). */
  readonly followers: number;
  /** Users of the Zipf graph, each following `followsPerUser` distinct Zipf-drawn others. */
  readonly users: number;
  readonly followsPerUser: number;
  readonly zipfExponent: number;
  /** Measured repeats of every comparison (each reported, plus median and spread). */
  readonly repeats: number;
  /** Newest-page samples per side and repeat. */
  readonly samples: number;
  /** Distinct Zipf users whose newest page is read once per side and repeat (a page the reader never read before). */
  readonly coldPages: number;
  readonly pageLimit: number;
  readonly scanPage: number;
  /** fetchSize of the raw driver's paged scan. */
  readonly rawFetchSize: number;
  /** Traversal start vertices (Zipf-drawn) per repeat. */
  readonly starts: number;
  readonly hops: readonly LinkDirection[];
  readonly hopCap: number;
  /** Offered HTTP request rate (per second) and connections of the open-loop generator; seconds per block. */
  readonly rate: number;
  readonly connections: number;
  readonly httpSeconds: number;
  readonly loadBatch: number;
  readonly loadConcurrency: number;
  readonly splitTimeoutMinutes: number;
  readonly seed: number;
  readonly keep: boolean;
  /** single (default) or cluster: the local 3-node cluster at RF 3 and LOCAL_QUORUM (bench/shared/benchStack). */
  readonly stack: StackChoice;
  readonly out: string | undefined;
  readonly help: boolean;
}

export const DEFAULT_FOLLOWERS = 1_000_000;
export const DEFAULT_USERS = 100_000;

export const USAGE = `npm run bench:reads -- [flags]

Read-path benchmark: every edgestream read figure next to the raw cassandra-driver
doing the least work the same answer needs, measured in the same run, interleaved:
newest page, full newest-first scan, 2-hop traversal, and the newest page over HTTP
(a real \`edgestream serve\` child at a fixed offered rate), before and after the
celebrity's split.

  --followers <n>            followers of the celebrity (default ${DEFAULT_FOLLOWERS})
  --users <n>                users of the Zipf graph (default ${DEFAULT_USERS})
  --follows-per-user <n>     distinct Zipf-drawn follows per user (default 10)
  --zipf-exponent <f>        (default 1.1)
  --repeats <n>              measured repeats of every comparison (default 3)
  --samples <n>              newest-page samples per side and repeat (default 1000)
  --cold-pages <n>           first reads of the newest page of as many distinct popular Zipf users per side
                             and repeat (default 200; 0 skips)
  --page-limit <n>           newest-page size (default 50)
  --scan-page <n>            page size of edgestream's full scan (default 1000)
  --raw-fetch-size <n>       fetchSize of the raw paged scan (default 5000)
  --starts <n>               traversal start vertices per repeat (default 1000)
  --hops <d,d>               directions of the follows hops (default in,out: followers, then whom they follow)
  --hop-cap <n>              new vertices per hop (default 1000)
  --rate <n>                 offered HTTP/library request rate, per second (default 200)
  --connections <n>          connections (requests in flight) of the open-loop generator (default 16)
  --http-seconds <n>         seconds per open-loop block (default 15)
  --load-batch <n>           events per mutateMany call while loading (default 128)
  --load-concurrency <n>     mutateMany calls in flight while loading (default 24)
  --split-timeout-minutes <n> give up on the chain after this long (default 60)
  --seed <n>                 Zipf graph and start vertices (default 1)
  --keep                     keep the keyspace and topics (default: drop/delete them)
  --stack <single|cluster>   single: the stack every command finds, at RF 1 (default); cluster: the local
                             3-node cluster (started if needed, stopped again if this run started it), the
                             keyspace at RF 3 NetworkTopologyStrategy, topics at RF 3 / min.insync.replicas 2,
                             LOCAL_QUORUM for the store and the raw driver alike
  --out <file>               result JSON (default bench/results/reads-latest.json for the default
                             sizes or larger, else bench/results/reads-small.json; reads-cluster-… with
                             --stack cluster)
`;

export function parseReadsArgs(argv: readonly string[]): ReadsBenchArgs {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      followers: { type: 'string' },
      users: { type: 'string' },
      'follows-per-user': { type: 'string' },
      'zipf-exponent': { type: 'string' },
      repeats: { type: 'string' },
      samples: { type: 'string' },
      'cold-pages': { type: 'string' },
      'page-limit': { type: 'string' },
      'scan-page': { type: 'string' },
      'raw-fetch-size': { type: 'string' },
      starts: { type: 'string' },
      hops: { type: 'string' },
      'hop-cap': { type: 'string' },
      rate: { type: 'string' },
      connections: { type: 'string' },
      'http-seconds': { type: 'string' },
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
  const exponent = values['zipf-exponent'] === undefined ? 1.1 : Number(values['zipf-exponent']);
  if (!Number.isFinite(exponent) || exponent <= 0 || exponent > 5) throw new Error(`--zipf-exponent must be in (0, 5], got "${values['zipf-exponent']}"`);
  const hops = (values.hops ?? 'in,out').split(',').map((h) => h.trim());
  if (hops.length < 1 || hops.length > 4 || hops.some((h) => h !== 'in' && h !== 'out')) throw new Error(`--hops must be 1 to 4 of in/out separated by commas, got "${values.hops}"`);
  const users = int('users', values.users, DEFAULT_USERS, 100);
  return {
    followers: int('followers', values.followers, DEFAULT_FOLLOWERS, 100),
    users,
    followsPerUser: int('follows-per-user', values['follows-per-user'], 10, 1, Math.max(1, Math.floor(users / 10))),
    zipfExponent: exponent,
    repeats: int('repeats', values.repeats, 3),
    samples: int('samples', values.samples, 1_000),
    coldPages: int('cold-pages', values['cold-pages'], 200, 0),
    pageLimit: int('page-limit', values['page-limit'], 50, 1, 1_000),
    scanPage: int('scan-page', values['scan-page'], 1_000, 1, 5_000),
    rawFetchSize: int('raw-fetch-size', values['raw-fetch-size'], 5_000, 1, 100_000),
    starts: int('starts', values.starts, 1_000),
    hops: hops as LinkDirection[],
    hopCap: int('hop-cap', values['hop-cap'], 1_000, 1, 100_000),
    rate: int('rate', values.rate, 200, 1, 100_000),
    connections: int('connections', values.connections, 16, 1, 1_024),
    httpSeconds: int('http-seconds', values['http-seconds'], 15, 1, 3_600),
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
