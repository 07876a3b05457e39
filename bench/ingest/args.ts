import { parseArgs } from 'node:util';
import { KAFKA_CLIENTS, type KafkaClientName } from '../../schemas/config/clusterConfig.ts';
import { EDGE_PIPELINE_STAGES, type EdgePipelineStage } from '../../streams/topology/createEdgePipeline.ts';
import { parseStackChoice, type StackChoice } from '../shared/stackChoice.ts';

/** Flags of `bench:ingest`. Every default is the committed bench configuration. */
export interface BenchArgs {
  readonly events: number;
  readonly repeats: number;
  readonly users: number;
  readonly zipfExponent: number;
  readonly seed: number;
  readonly edgeType: string;
  /** Pipeline config knobs (undefined = the edgestream default). */
  readonly partitions: number;
  readonly partitionsConsumedConcurrently: number | undefined;
  readonly writeConcurrency: number | undefined;
  readonly linkCacheEntries: number | undefined;
  readonly recountIntervalMs: number | undefined;
  readonly stages: readonly EdgePipelineStage[];
  readonly latencySeconds: number;
  readonly latencyWarmupSeconds: number;
  readonly latencyFraction: number;
  readonly latencyAttempts: number;
  readonly samplesPerSecond: number;
  readonly pollMs: number;
  readonly ceilingLevels: readonly number[];
  readonly ceilingSweepRows: number;
  /** Chunks in flight the batched ceiling tries (each with the store's mutationConcurrency requests). */
  readonly batchedLevels: readonly number[];
  readonly skipCeiling: boolean;
  readonly skipLatency: boolean;
  readonly profile: boolean;
  /** Processor entry relative to the repo root, and extra arguments after `--config <file> run`. */
  readonly childEntry: string;
  readonly childArgs: readonly string[];
  /** Extra node flags for the child (e.g. --max-semi-space-size=64). */
  readonly childNodeArgs: readonly string[];
  readonly out: string | undefined;
  /** COMPLETED split records in the directory, one variant per value; every repeat runs each variant, in rotating order. */
  readonly splitRecords: readonly number[];
  /** How many of the workload's most followed users have their reverse partitions among the split records (mirrored writes). */
  readonly splitTouched: number;
  /** The Kafka adapter of the load producer and the processor child (--kafka-client); undefined: EDGESTREAM_KAFKA_CLIENT, else kafkajs. */
  readonly kafkaClient: KafkaClientName | undefined;
  /** single (default) or cluster: the local 3-node cluster at RF 3 and LOCAL_QUORUM (bench/shared/benchStack). */
  readonly stack: StackChoice;
  readonly help: boolean;
}

export const USAGE = `npm run bench:ingest -- [flags]

End-to-end ingest benchmark: ADD_EDGE events with Zipf targets through real Kafka,
the processors (a child \`edgestream run\`) and Cassandra, against two raw
cassandra-driver ceilings measured in the same run, after each repeat: batched
(the pipeline's chunks and batches, with the exact index's current-link read)
and unbatched (one INSERT per row).

  --events <n>              ADD_EDGE events per throughput phase (default 200000)
  --repeats <n>             throughput/latency/ceiling repeats; every repeat, medians and ranges are reported (default 3)
  --users <n>               vertex count (default 100000)
  --zipf-exponent <s>       Zipf exponent of the targets (default 1.1)
  --seed <n>                workload seed (default 1)
  --partitions <n>          input topic partitions (default 6)
  --pcc <n>                 runtime.partitionsConsumedConcurrently (default: edgestream's)
  --write-concurrency <n>   runtime.writeConcurrency (default: edgestream's)
  --link-cache <n>          runtime.linkCacheEntries (default: edgestream's)
  --recount-interval-ms <n> runtime.recountIntervalMs (default: edgestream's)
  --stages <list>           stages the child runs, comma-separated or "all" (default all)
  --latency-seconds <s>     fixed-rate phase length (default 25)
  --latency-warmup <s>      samples discarded at its start (default 3)
  --latency-fraction <f>    offered rate as a share of the median measured edges/s (default 0.6)
  --latency-attempts <n>    a saturated latency phase (backlog > 2 s of traffic at its end) is repeated at
                            70% of its rate, at most this many times in all (default 3)
  --samples-per-second <n>  events followed by the visibility sampler (default 20)
  --poll-ms <n>             shortest sampler re-read interval per key (default 10; grows to 10% of the wait, at most 200)
  --ceiling-levels <list>   raw-driver concurrency levels to try (default 32,64,128,256,512)
  --ceiling-sweep-rows <n>  rows per level in the sweeps; the best level then writes all rows (default 250000)
  --batched-levels <list>   chunks in flight the batched ceiling tries (default 6,12,24: the pipeline runs at most
                            partitionsConsumedConcurrently × chunksInFlightPerPartition = 6 × 4)
  --skip-ceiling, --skip-latency
  --profile                 run the child with --cpu-prof and print where its CPU time goes
  --child-entry <file>      processor entry (default bin/edgestream.js)
  --child-arg <arg>         extra argument for the child after "run <stages>" (repeatable)
  --child-node-arg <flag>   extra node flag for the child, e.g. --child-node-arg=--max-semi-space-size=64 (repeatable)
  --split-records <list>    COMPLETED splits in the directory per variant, e.g. 0,10000: each repeat runs every
                            variant (order rotating); the records are of partitions the workload never
                            touches plus the reverse links of its --split-touched most followed users (default 0)
  --kafka-client <name>     kafkajs or platformatic: the Kafka adapter of the load producer and of the
                            processor child (sets EDGESTREAM_KAFKA_CLIENT; default: that variable, else kafkajs)
  --split-touched <n>       most followed users whose reverse links and index are among the split records, so
                            their writes are mirrored into buckets (default 4; 0 measures the directory alone)
  --stack <single|cluster>  single: the stack every command finds, at RF 1 (default); cluster: the local 3-node
                            cluster (started if needed, stopped again if this run started it), the run's keyspaces
                            at RF 3 NetworkTopologyStrategy, topics at RF 3 / min.insync.replicas 2, LOCAL_QUORUM
                            for the store and the raw driver alike
  --out <file>              result JSON (default bench/results/ingest-latest.json for >= 200000
                            events, else bench/results/ingest-small.json; ingest-cluster-… with --stack cluster)
`;

export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      events: { type: 'string' },
      repeats: { type: 'string' },
      users: { type: 'string' },
      'zipf-exponent': { type: 'string' },
      seed: { type: 'string' },
      partitions: { type: 'string' },
      pcc: { type: 'string' },
      'write-concurrency': { type: 'string' },
      'link-cache': { type: 'string' },
      'recount-interval-ms': { type: 'string' },
      stages: { type: 'string' },
      'latency-seconds': { type: 'string' },
      'latency-warmup': { type: 'string' },
      'latency-fraction': { type: 'string' },
      'latency-attempts': { type: 'string' },
      'samples-per-second': { type: 'string' },
      'poll-ms': { type: 'string' },
      'ceiling-levels': { type: 'string' },
      'ceiling-sweep-rows': { type: 'string' },
      'batched-levels': { type: 'string' },
      'skip-ceiling': { type: 'boolean', default: false },
      'skip-latency': { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      'child-entry': { type: 'string' },
      'child-arg': { type: 'string', multiple: true },
      'child-node-arg': { type: 'string', multiple: true },
      out: { type: 'string' },
      'split-records': { type: 'string' },
      'split-touched': { type: 'string' },
      'kafka-client': { type: 'string' },
      stack: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const int = (name: string, raw: string | undefined, fallback: number, min = 1): number => {
    if (raw === undefined) return fallback;
    const n = Number(raw.replace(/_/g, ''));
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}, got "${raw}"`);
    return n;
  };
  const optInt = (name: string, raw: string | undefined): number | undefined => (raw === undefined ? undefined : int(name, raw, 0, 0));
  const num = (name: string, raw: string | undefined, fallback: number, ok: (n: number) => boolean): number => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || !ok(n)) throw new Error(`--${name}: bad value "${raw}"`);
    return n;
  };
  const stagesRaw = values.stages ?? 'all';
  const stages = stagesRaw === 'all' ? [...EDGE_PIPELINE_STAGES] : stagesRaw.split(',').map((s) => s.trim());
  for (const s of stages) if (!(EDGE_PIPELINE_STAGES as readonly string[]).includes(s)) throw new Error(`--stages: unknown stage "${s}"`);
  if (!stages.includes('fanout')) throw new Error('--stages must include fanout');
  return {
    events: int('events', values.events, 200_000),
    repeats: int('repeats', values.repeats, 3),
    users: int('users', values.users, 100_000, 2),
    zipfExponent: num('zipf-exponent', values['zipf-exponent'], 1.1, (n) => n > 0),
    seed: int('seed', values.seed, 1),
    edgeType: 'follows',
    partitions: int('partitions', values.partitions, 6),
    partitionsConsumedConcurrently: optInt('pcc', values.pcc),
    writeConcurrency: optInt('write-concurrency', values['write-concurrency']),
    linkCacheEntries: optInt('link-cache', values['link-cache']),
    recountIntervalMs: optInt('recount-interval-ms', values['recount-interval-ms']),
    stages: stages as EdgePipelineStage[],
    latencySeconds: num('latency-seconds', values['latency-seconds'], 25, (n) => n > 0),
    latencyWarmupSeconds: num('latency-warmup', values['latency-warmup'], 3, (n) => n >= 0),
    latencyFraction: num('latency-fraction', values['latency-fraction'], 0.6, (n) => n > 0 && n <= 1),
    latencyAttempts: int('latency-attempts', values['latency-attempts'], 3),
    samplesPerSecond: int('samples-per-second', values['samples-per-second'], 20),
    pollMs: int('poll-ms', values['poll-ms'], 10),
    ceilingLevels: (values['ceiling-levels'] ?? '32,64,128,256,512').split(',').map((s) => int('ceiling-levels', s.trim(), 0)),
    ceilingSweepRows: int('ceiling-sweep-rows', values['ceiling-sweep-rows'], 250_000),
    batchedLevels: (values['batched-levels'] ?? '6,12,24').split(',').map((s) => int('batched-levels', s.trim(), 0)),
    skipCeiling: values['skip-ceiling'] ?? false,
    skipLatency: values['skip-latency'] ?? false,
    profile: values.profile ?? false,
    childEntry: values['child-entry'] ?? 'bin/edgestream.js',
    childArgs: values['child-arg'] ?? [],
    childNodeArgs: values['child-node-arg'] ?? [],
    out: values.out,
    splitRecords: (values['split-records'] ?? '0').split(',').map((x) => int('split-records', x.trim(), 0, 0)),
    splitTouched: int('split-touched', values['split-touched'], 4, 0),
    kafkaClient: kafkaClient(values['kafka-client']),
    stack: parseStackChoice(values.stack),
    help: values.help ?? false,
  };
}

function kafkaClient(raw: string | undefined): KafkaClientName | undefined {
  if (raw === undefined) return undefined;
  if (!(KAFKA_CLIENTS as readonly string[]).includes(raw)) throw new Error(`--kafka-client: expected ${KAFKA_CLIENTS.join(' or ')}, got "${raw}"`);
  return raw as KafkaClientName;
}
