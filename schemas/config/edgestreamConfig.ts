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
  /** tunable. Total time the runtime retries a failing batch write before handing it to the repair topic. */
  writeRetryBudgetMs: z.int().min(0).default(10_000),
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
   * is a repair, which stamps anew); an ADD may read "none" until `tombstoneCacheTtlMs` after
   * that write lands and takes up to `writeRetryBudgetMs` itself (a slower ADD is in the
   * repair topic, whose re-run reads the tombstone). Hence the rule
   * `cascadeSettleMs > 2 × writeRetryBudgetMs + tombstoneCacheTtlMs`.
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
}).refine((r) => r.cascadeSettleMs > 2 * r.writeRetryBudgetMs + r.tombstoneCacheTtlMs, {
  path: ['cascadeSettleMs'],
  message:
    'must be greater than 2 × runtime.writeRetryBudgetMs + runtime.tombstoneCacheTtlMs (the tombstone write and an ADD that read "no tombstone" before it was visible must both have landed before the cascade pages)',
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

/**
 * Bounds of every multi-read operation of the EdgeReader (a traversal, a neighbour page,
 * a property bag, a multi-get): each one may read at most `maxRows` cells in at most
 * `maxQueries` partition reads within `deadlineMs`; a caller may ask for other bounds per
 * call (reads/README.md). A traversal returns what it has with `partial.reason`; a single
 * answer throws ReadLimitError.
 */
/** Hard upper bounds of the read budgets, in the config and per call. */
export const READ_BOUND_MAX = { maxRows: 10_000_000, maxQueries: 1_000_000, deadlineMs: 600_000 } as const;

const readsSchema = z.strictObject({
  /** tunable. Cells one operation may read in total (pages and point reads). */
  maxRows: z.int().min(1).max(READ_BOUND_MAX.maxRows).default(200_000),
  /** tunable. Partition reads (a page or a point read each) one operation may issue. */
  maxQueries: z.int().min(1).max(READ_BOUND_MAX.maxQueries).default(20_000),
  /** tunable. Wall-clock time one operation may take; reads still in flight then are abandoned. */
  deadlineMs: z.int().min(1).max(READ_BOUND_MAX.deadlineMs).default(10_000),
  /** tunable. Longest neighbour-page cursor accepted, in characters of its opaque text. */
  maxCursorBytes: z.int().min(128).max(65_536).default(2_048),
  traversal: z
    .strictObject({
      /** tunable. New vertices per hop when neither the call nor the hop says. */
      perHopCap: z.int().min(1).max(100_000).default(1_000),
      /** tunable. Frontier reads in flight per replica set (per host with replication factor 1). */
      concurrencyPerReplicaSet: z.int().min(1).max(256).default(8),
      /** tunable. Frontier reads in flight in all (with vnodes a frontier spans many replica sets). */
      maxInFlight: z.int().min(1).max(1_024).default(64),
    })
    .prefault({}),
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
  reads: readsSchema.default(readsSchema.parse({})),
});

/**
 * How long after a split plan is recorded every writer is known to mirror the
 * partition's writes into the split layout: a writer reloads the directory's
 * Bloom filter every `wide.directoryRefreshMs` and caches a record for as long,
 * so it sees a new plan within two refreshes; a write it started before that may be
 * retried for `runtime.writeRetryBudgetMs` (a later attempt goes through the
 * repair runner, which reloads too). The splitter copies only after it.
 */
export function splitMirrorBarrierMs(config: EdgestreamConfig): number {
  return 2 * config.wide.directoryRefreshMs + config.runtime.writeRetryBudgetMs + 1_000;
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
