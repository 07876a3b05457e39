import { parseArgs } from 'node:util';
import { intFlag } from '../shared/intFlag.ts';

/** Flags of `bench:mixed`. Every default is the committed bench configuration. */
export interface MixedBenchArgs {
  readonly ids: number;
  readonly meanDegree: number;
  readonly degreeExponent: number;
  /** Zipf exponent of the request phase's source ids (by rank: the most linked vertices are the most requested). */
  readonly accessExponent: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly clients: number;
  /** Offered load in ops/s over all clients (Poisson arrivals, LinkBench's requestrate); 0 = closed loop, each system at its own saturation. */
  readonly rate: number;
  readonly repeats: number;
  readonly seed: number;
  readonly partitions: number;
  readonly countSample: number;
  readonly settleTimeoutSeconds: number;
  readonly answerSample: number;
  /** Share of acknowledged edgestream writes followed until a read sees them. */
  readonly visibleShare: number;
  readonly rawLoadConcurrency: number;
  /** Whether edgestream's processes keep running (`running`) or are stopped (`paused`) while the raw anchor is measured. */
  readonly rawBeside: 'paused' | 'running';
  /** The PostgreSQL 15 anchor: `on` fails when it cannot run, `auto` (no flag) runs it when the server binaries are found. */
  readonly postgres: 'auto' | 'on' | 'off';
  readonly keep: boolean;
  /** Config `runtime` fields for edgestream's processes, over the defaults (validated by the config's own schema when the run starts). */
  readonly runtime: Readonly<Record<string, unknown>>;
  readonly out: string | undefined;
  /** Directory for V8 CPU profiles of the processor and server children (`--cpu-prof`). */
  readonly cpuProfDir: string | undefined;
  /** Directory for Java Flight Recordings of Cassandra during the count settle and the first repeat's edgestream and raw blocks (`--cassandra-jfr`). */
  readonly cassandraJfrDir: string | undefined;
  readonly help: boolean;
}

export const DEFAULT_IDS = 100_000;
export const DEFAULT_SECONDS = 60;

export const USAGE = `npm run bench:mixed -- [flags]

LinkBench's link-only mix against edgestream (reads over HTTP from \`edgestream serve\`,
writes as EdgeMutation records through the producer SDK, real \`edgestream run\`
processors) and, in the same run on the same Cassandra, the raw cassandra-driver doing
the least work the same answers need, and PostgreSQL 15 with LinkBench's schema. See bench/mixed/README.md.

  --ids <n>                  vertices of the graph (default ${DEFAULT_IDS}; --ids 5000 for a smoke run)
  --mean-degree <f>          mean out-degree (default 9)
  --degree-exponent <f>      out-degree of rank r ∝ 1/(r+1)^f (default 0.8)
  --access-exponent <f>      Zipf exponent of the request phase's source ids (default 0.8)
  --seconds <n>              measured seconds per request block (default ${DEFAULT_SECONDS})
  --warmup <n>               unrecorded seconds before each block (default 5)
  --clients <n>              concurrent requesters, closed loop (default 20)
  --rate <ops/s>             offered load of all clients together: each sends at Poisson arrival times of rate ÷ clients,
                             one op at a time, latency from the scheduled time (LinkBench's requestrate); compares the
                             systems' latencies at one load below every system's capacity (default 0: closed loop)
  --repeats <n>              request blocks per system, interleaved (default 3)
  --seed <n>                 graph and op streams (default 1)
  --partitions <n>           input topic partitions (default 6)
  --count-sample <n>         vertices whose degree is checked for the count settle time (default 1000)
  --settle-timeout <s>       give up waiting for the counts after this long (default 900)
  --answer-sample <n>        vertices whose answers are compared between the systems before the mix (default 200)
  --visible-share <f>        share of edgestream writes followed until a read sees them (default 0.05)
  --raw-load-concurrency <n> requests in flight while loading the raw tables (default 64)
  --raw-beside <mode>        paused (default): edgestream's processor and server are stopped (SIGSTOP) while an
                             anchor (raw, postgres) runs, one system up at a time; running: they keep running beside it
  --postgres <on|off>        the PostgreSQL 15 anchor (own server, started for its phases, paused otherwise; default: on
                             when the postgres and initdb binaries are found, else skipped with the reason; on: fail then)
  --runtime <json>           config \`runtime\` fields for edgestream's processes, e.g. '{"background":{"maxConcurrency":4}}'
                             (default: the config's defaults; recorded in the result's config)
  --keep                     keep the keyspaces and topics (default: drop/delete them)
  --cpu-prof <dir>           write V8 CPU profiles of the processor and server children to <dir> (node --cpu-prof; open in Chrome DevTools)
  --cassandra-jfr <dir>      record Cassandra with Java Flight Recorder during the count settle and the first repeat's edgestream and
                             raw blocks into <dir>; the result gets each phase's samples by thread pool and top frame (local stack only)
  --out <file>               result JSON (default bench/results/mixed-latest.json for --ids >= ${DEFAULT_IDS} and
                             --seconds >= ${DEFAULT_SECONDS}, else bench/results/mixed-small.json; with --rate,
                             bench/results/mixed-rate-latest.json)
`;

function runtimeFlag(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    throw new Error(`--runtime must be a JSON object of config runtime fields: ${(e as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`--runtime must be a JSON object of config runtime fields, got ${raw}`);
  return parsed as Record<string, unknown>;
}

function numberFlag(name: string, raw: string | undefined, fallback: number, ok: (n: number) => boolean, range: string): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || !ok(n)) throw new Error(`--${name} must be ${range}, got "${raw}"`);
  return n;
}

export function parseMixedArgs(argv: readonly string[]): MixedBenchArgs {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      ids: { type: 'string' },
      'mean-degree': { type: 'string' },
      'degree-exponent': { type: 'string' },
      'access-exponent': { type: 'string' },
      seconds: { type: 'string' },
      warmup: { type: 'string' },
      clients: { type: 'string' },
      rate: { type: 'string' },
      repeats: { type: 'string' },
      seed: { type: 'string' },
      partitions: { type: 'string' },
      'count-sample': { type: 'string' },
      'settle-timeout': { type: 'string' },
      'answer-sample': { type: 'string' },
      'visible-share': { type: 'string' },
      'raw-load-concurrency': { type: 'string' },
      'raw-beside': { type: 'string' },
      postgres: { type: 'string' },
      keep: { type: 'boolean', default: false },
      runtime: { type: 'string' },
      out: { type: 'string' },
      'cpu-prof': { type: 'string' },
      'cassandra-jfr': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const rawBeside = values['raw-beside'] ?? 'paused';
  if (rawBeside !== 'paused' && rawBeside !== 'running') throw new Error(`--raw-beside must be paused or running, got "${rawBeside}"`);
  const postgres = values.postgres ?? 'auto';
  if (postgres !== 'on' && postgres !== 'off' && postgres !== 'auto') throw new Error(`--postgres must be on or off, got "${postgres}"`);
  const ids = intFlag('ids', values.ids, DEFAULT_IDS, 100);
  return {
    ids,
    meanDegree: numberFlag('mean-degree', values['mean-degree'], 9, (n) => n > 0 && n < ids, `a number in (0, ids)`),
    degreeExponent: numberFlag('degree-exponent', values['degree-exponent'], 0.8, (n) => n >= 0 && n <= 5, 'a number in [0, 5]'),
    accessExponent: numberFlag('access-exponent', values['access-exponent'], 0.8, (n) => n >= 0 && n <= 5, 'a number in [0, 5]'),
    seconds: intFlag('seconds', values.seconds, DEFAULT_SECONDS, 1),
    warmupSeconds: intFlag('warmup', values.warmup, 5, 0),
    clients: intFlag('clients', values.clients, 20, 1, 1_000),
    rate: numberFlag('rate', values.rate, 0, (n) => n >= 0 && n <= 1_000_000, 'a number of ops/s in [0, 1000000] (0: closed loop)'),
    repeats: intFlag('repeats', values.repeats, 3, 1, 100),
    seed: intFlag('seed', values.seed, 1, 0),
    partitions: intFlag('partitions', values.partitions, 6, 1, 1_024),
    countSample: intFlag('count-sample', values['count-sample'], 1_000, 1),
    settleTimeoutSeconds: intFlag('settle-timeout', values['settle-timeout'], 900, 1),
    answerSample: intFlag('answer-sample', values['answer-sample'], 200, 0),
    visibleShare: numberFlag('visible-share', values['visible-share'], 0.05, (n) => n > 0 && n <= 1, 'a number in (0, 1]'),
    rawLoadConcurrency: intFlag('raw-load-concurrency', values['raw-load-concurrency'], 64, 1, 4_096),
    rawBeside,
    postgres,
    keep: values.keep ?? false,
    runtime: runtimeFlag(values.runtime),
    out: values.out,
    cpuProfDir: values['cpu-prof'],
    cassandraJfrDir: values['cassandra-jfr'],
    help: values.help ?? false,
  };
}
