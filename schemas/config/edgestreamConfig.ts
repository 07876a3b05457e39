import { z } from 'zod';

/**
 * The edgestream config file (`edgestream.config.json`, or `--config <file>`):
 * declared once, parsed once by the composition root (cli/), frozen and passed
 * down. `fixed` settings must not change after the first write (they shape keys,
 * tables and topics); `tunable` ones may change between runs.
 */

/** Edge type names become part of table names (`<type>_out`), so they are short lowercase identifiers. */
export const EDGE_TYPE_PATTERN = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

const edgeTypeSchema = z.strictObject({
  /** fixed. e.g. "follows". */
  name: z.string().max(30).regex(EDGE_TYPE_PATTERN, 'must be a lowercase identifier like "follows" (letters, digits, single underscores)'),
});

const limitsSchema = z.strictObject({
  /** fixed. Longest vertex id, in UTF-8 bytes. */
  maxVertexIdBytes: z.int().min(1).max(4096).default(256),
  /** Most properties in one event. */
  maxProperties: z.int().min(0).max(10_000).default(64),
  /** Longest property name, in UTF-8 bytes. */
  maxPropertyNameBytes: z.int().min(1).max(1024).default(128),
  /** Largest encoded property bag of one event, in bytes. */
  maxPropertyBagBytes: z.int().min(1).max(16 << 20).default(64 << 10),
  /** Longest mutation id, in UTF-8 bytes (≥ 32: cascade ids fall back to a cut SHA-256 that must stay collision-safe). */
  maxMutationIdBytes: z.int().min(32).max(1024).default(128),
  /** event_time may be at most this far in the future of the processing wall clock. */
  maxFutureSkewMs: z.int().min(0).default(5 * 60_000),
  /** event_time must be after this instant (microseconds); guards against seconds/millis sent as micros. */
  minEventTimeMicros: z.coerce.bigint().default(946_684_800_000_000n), // 2000-01-01
});

const topicsSchema = z.strictObject({
  /** fixed. Prefix of every topic name. */
  prefix: z.string().regex(/^[a-zA-Z0-9._-]*$/, 'may contain only letters, digits, ".", "_" and "-"').default('edgestream.'),
  /** fixed. Partitions of the input topic (and its repair topic). */
  partitions: z.int().min(1).max(1024).default(6),
  replicationFactor: z.int().min(1).max(16).default(1),
});

const cassandraSchema = z.strictObject({
  /** fixed. */
  keyspace: z.string().regex(/^[a-z][a-z0-9_]{0,47}$/, 'must be a lowercase CQL identifier').default('edgestream'),
  replicationFactor: z.int().min(1).max(16).default(1),
});

const runtimeSchema = z.strictObject({
  /** tunable. Partitions processed concurrently per processor instance. */
  partitionsConsumedConcurrently: z.int().min(1).max(64).default(6),
  /** tunable. Partition groups of one chunk written to Cassandra concurrently (the store's mutationConcurrency). */
  writeConcurrency: z.int().min(1).max(1024).default(128),
  /**
   * tunable. Total time the runtime retries a failing batch write before handing it to the
   * repair topic. Every attempt's request timeout is clipped to what is left of it, but
   * never below `writeLandingMarginMs` (a write abandoned sooner may still land), so the
   * runtime stops waiting for a write within budget + margin.
   */
  writeRetryBudgetMs: z.int().min(0).default(10_000),
  /**
   * tunable. How long after the runtime gave up on a write it may still land: the cluster's
   * `write_request_timeout` (2 s by default: a replica still applies a mutation that arrived
   * before it gave up) plus an allowance for a process pause. The cascade settle rule and the
   * split mirror barrier add it to the retry budget.
   */
  writeLandingMarginMs: z.int().min(0).default(2_000),
  /** tunable. Repair attempts before an event is parked in the DLQ. */
  repairMaxAttempts: z.int().min(1).max(100).default(8),
  /** tunable. First repair back-off; doubles per attempt. */
  repairInitialBackoffMs: z.int().min(1).default(1_000),
  repairMaxBackoffMs: z.int().min(1).default(60_000),
  /** tunable. Entries of the write-aside link cache (0 disables it). */
  linkCacheEntries: z.int().min(0).default(100_000),
  /**
   * tunable. How long a REMOVE_NODE cascade waits after its node tombstone was written before
   * paging the node's links, so that every ADD which read "no tombstone" has landed. The
   * tombstone's stamp precedes its own write by up to `writeRetryBudgetMs` (a later attempt
   * is a repair, which stamps anew) plus `writeLandingMarginMs`; an ADD may read "none" until
   * `tombstoneCacheTtlMs` after that write lands and lands within as long itself (a slower ADD
   * is in the repair topic, whose re-run reads the tombstone). Hence the rule
   * `cascadeSettleMs > 2 × (writeRetryBudgetMs + writeLandingMarginMs) + tombstoneCacheTtlMs`.
   */
  cascadeSettleMs: z.int().min(0).default(30_000),
  /**
   * tunable. How long the fan-out may serve a node-tombstone read (present or absent) from
   * its cache (0 turns the cache off). Safe because the cascade waits `cascadeSettleMs`
   * (see its rule above).
   */
  tombstoneCacheTtlMs: z.int().min(0).default(5_000),
  /** tunable. A cascade whose tombstone never becomes visible is dead-lettered after this long. */
  cascadeGiveUpAfterMs: z.int().min(1).default(10 * 60_000),
  /**
   * tunable. Kafka consumer session timeout: how long the group waits for a crashed
   * processor before its partitions move to a live one. Lower recovers faster; it must
   * stay within the broker's group.{min,max}.session.timeout.ms (6 s and 30 min by default).
   */
  sessionTimeoutMs: z.int().min(6_000).max(1_800_000).default(30_000),
  /** tunable. How often the degree recounter takes dirty marks: counts lag by up to this much; each round re-reads every dirty vertex's whole link partition (a celebrity's too), so shorter costs more. */
  recountIntervalMs: z.int().min(10).default(10_000),
}).refine((r) => r.cascadeSettleMs > 2 * (r.writeRetryBudgetMs + r.writeLandingMarginMs) + r.tombstoneCacheTtlMs, {
  path: ['cascadeSettleMs'],
  message:
    'must be greater than 2 × (runtime.writeRetryBudgetMs + runtime.writeLandingMarginMs) + runtime.tombstoneCacheTtlMs (the tombstone write and an ADD that read "no tombstone" before it was visible must both have landed before the cascade pages)',
});

/** Read-side wide-partition detection and the plan → split → verify chain (docs/architecture.md §6). */
const wideSchema = z.strictObject({
  /** tunable. Length of the sliding window the read-side counters sum over. */
  windowMs: z.int().min(1_000).default(60_000),
  /** tunable. Bytes read from one partition within the window that make it wide. */
  thresholdBytes: z.int().min(1).default(8 << 20),
  /** tunable. Rows read from one partition within the window that make it wide (whichever threshold is crossed first). */
  thresholdRows: z.int().min(1).default(100_000),
  /** tunable. At most one wide-partition event per partition per cool-down (per reader process). */
  coolDownMs: z.int().min(0).default(10 * 60_000),
  /** tunable. Bucket count = ceil(partition bytes / this), at least 2. */
  targetBucketBytes: z.int().min(1_024).default(1 << 20),
  /** fixed per split. Most buckets of one split: bounds the read amplification of a merged page. */
  maxBuckets: z.int().min(2).max(256).default(16),
  /** tunable. How often readers and writers reload the split directory (Bloom filter + statuses) from wide_rows. */
  directoryRefreshMs: z.int().min(50).default(5_000),
  /** tunable. Target false-positive rate of the split Bloom filter. */
  bloomFalsePositiveRate: z.number().gt(0).lt(0.5).default(0.01),
  /** tunable. How long the verifier re-reads a cell that differs between the original and the split before calling it a mismatch (a write in flight to both). */
  verifySettleMs: z.int().min(0).default(5_000),
});

export const edgestreamConfigSchema = z.strictObject({
  edgeTypes: z.array(edgeTypeSchema).min(1, 'declare at least one edge type').superRefine((types, ctx) => {
    const seen = new Set<string>();
    types.forEach((t, i) => {
      if (seen.has(t.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate edge type '${t.name}'` });
      seen.add(t.name);
    });
  }),
  limits: limitsSchema.default(limitsSchema.parse({})),
  topics: topicsSchema.default(topicsSchema.parse({})),
  cassandra: cassandraSchema.default(cassandraSchema.parse({})),
  runtime: runtimeSchema.default(runtimeSchema.parse({})),
  wide: wideSchema.default(wideSchema.parse({})),
});

/**
 * How long after a split plan is recorded every writer is known to mirror the
 * partition's writes into the split layout: a writer reloads the directory's
 * Bloom filter every `wide.directoryRefreshMs` and caches a record for as long,
 * so it sees a new plan within two refreshes; a write it started before that may be
 * retried for `runtime.writeRetryBudgetMs` (a later attempt goes through the
 * repair runner, which reloads too) and land up to `runtime.writeLandingMarginMs`
 * after the runtime gave up on it. The splitter copies only after it. A writer
 * paused longer than the margin breaks the bound; the verifier then FAILS the split.
 */
export function splitMirrorBarrierMs(config: EdgestreamConfig): number {
  return 2 * config.wide.directoryRefreshMs + config.runtime.writeRetryBudgetMs + config.runtime.writeLandingMarginMs;
}

export type EdgestreamConfigInput = z.input<typeof edgestreamConfigSchema>;
export type EdgestreamConfig = z.output<typeof edgestreamConfigSchema>;

/** Parses a config object; a bad one throws an Error naming the field path (e.g. `edgeTypes.0.name`). */
export function parseEdgestreamConfig(input: unknown, source = 'config'): EdgestreamConfig {
  const parsed = edgestreamConfigSchema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`invalid ${source}:\n${lines.join('\n')}`);
  }
  return Object.freeze(parsed.data);
}

/** A config with one edge type, for tests and the demo. */
export function defaultEdgestreamConfig(overrides: Partial<EdgestreamConfigInput> = {}): EdgestreamConfig {
  return parseEdgestreamConfig({ edgeTypes: [{ name: 'follows' }, { name: 'likes' }], ...overrides });
}
