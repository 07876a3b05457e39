import { parseArgs } from 'node:util';

/** Flags of `bench:counts`. Every default is the committed bench configuration. */
export interface CountsBenchArgs {
  /** Followers of the celebrity, loaded before the stream. */
  readonly followers: number;
  /** Celebrity events per second (alternately a new follow and an unfollow of an existing follower). */
  readonly rate: number;
  /** Zipf background ADD_EDGEs per second, over `users` vertices. */
  readonly backgroundRate: number;
  readonly users: number;
  /** Seconds of stream per phase; phases run full, delta, full, delta… `repeats` times each. */
  readonly phaseSeconds: number;
  readonly repeats: number;
  /** Pause between recount rounds (runtime.recountIntervalMs). */
  readonly intervalMs: number;
  readonly loadBatch: number;
  readonly loadConcurrency: number;
  readonly seed: number;
  readonly keep: boolean;
  readonly out: string | undefined;
  readonly help: boolean;
}

export const DEFAULT_FOLLOWERS = 1_000_000;

export const USAGE = `npm run bench:counts -- [flags]

Degree-count benchmark: loads a celebrity with many followers straight into Cassandra,
then streams follows and unfollows of it at a fixed rate beside a Zipf background, and
runs the recounter in full and delta mode in alternating phases on the same data:
count staleness (write landed → a round's count reflects it) and rows read per round.

  --followers <n>         followers of the celebrity (default ${DEFAULT_FOLLOWERS})
  --rate <n>              celebrity follows+unfollows per second (default 5)
  --background-rate <n>   Zipf background follows per second (default 50)
  --users <n>             background vertices (default 10000)
  --phase-seconds <n>     stream seconds per phase (default 120)
  --repeats <n>           full+delta phase pairs (default 2)
  --interval-ms <n>       pause between recount rounds (default 1000)
  --load-batch <n>        events per mutateMany call while loading (default 128)
  --load-concurrency <n>  mutateMany calls in flight while loading (default 24)
  --seed <n>              background workload seed (default 1)
  --keep                  keep the keyspace and topics (default: drop/delete them)
  --out <file>            result JSON (default bench/results/counts-latest.json for the default
                          size or larger, else bench/results/counts-small.json)
`;

export function parseCountsArgs(argv: readonly string[]): CountsBenchArgs {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      followers: { type: 'string' },
      rate: { type: 'string' },
      'background-rate': { type: 'string' },
      users: { type: 'string' },
      'phase-seconds': { type: 'string' },
      repeats: { type: 'string' },
      'interval-ms': { type: 'string' },
      'load-batch': { type: 'string' },
      'load-concurrency': { type: 'string' },
      seed: { type: 'string' },
      keep: { type: 'boolean', default: false },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const int = (name: string, raw: string | undefined, fallback: number, min = 1, max = Number.MAX_SAFE_INTEGER): number => {
    if (raw === undefined) return fallback;
    const n = Number(raw.replace(/_/g, ''));
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer in [${min}, ${max}], got "${raw}"`);
    return n;
  };
  return {
    followers: int('followers', values.followers, DEFAULT_FOLLOWERS, 100),
    rate: int('rate', values.rate, 5, 1, 1_000),
    backgroundRate: int('background-rate', values['background-rate'], 50, 0, 10_000),
    users: int('users', values.users, 10_000, 10),
    phaseSeconds: int('phase-seconds', values['phase-seconds'], 120, 5),
    repeats: int('repeats', values.repeats, 2, 1, 20),
    intervalMs: int('interval-ms', values['interval-ms'], 1_000, 10),
    loadBatch: int('load-batch', values['load-batch'], 128),
    loadConcurrency: int('load-concurrency', values['load-concurrency'], 24),
    seed: int('seed', values.seed, 1, 0),
    keep: values.keep ?? false,
    out: values.out,
    help: values.help ?? false,
  };
}
