import { z } from 'zod';
import { clusterSchema } from './clusterConfig.ts';
import { consistencySchema, replicationSchema, type Replication } from './cassandraConfig.ts';

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
  /**
   * fixed. True for a relation with one property bag shared by a→b and b→a ("friends");
   * false (default) for a directed one ("follows"), whose two directions keep separate bags.
   * Changing it changes where bags live: re-materialise by replay (docs/architecture.md §5).
   */
  symmetric: z.boolean().default(false),
});

/** Default `limits.maxRecordBytes`: the broker's default `message.max.bytes` is about this too. */
export const DEFAULT_MAX_RECORD_BYTES = 1 << 20;

const limitsSchema = z.strictObject({
  /** fixed. Longest vertex id, in UTF-8 bytes. */
  maxVertexIdBytes: z.int().min(1).max(4096).default(256),
  /** Most properties in one event. */
  maxProperties: z.int().min(0).max(10_000).default(64),
  /** Longest property name, in UTF-8 bytes. */
  maxPropertyNameBytes: z.int().min(1).max(1024).default(128),
  /** Largest encoded property bag of one event, in bytes. */
  maxPropertyBagBytes: z.int().min(1).max(16 << 20).default(64 << 10),
  /**
   * Largest Kafka record value any consumer decodes, in bytes; a larger one is dead-lettered
   * unread (DecodeError RECORD_TOO_LARGE). Must exceed maxPropertyBagBytes (the bag travels in it).
   */
  maxRecordBytes: z.int().min(1024).max(256 << 20).default(DEFAULT_MAX_RECORD_BYTES),
  /** Largest per-edge `data` payload, in bytes (it lives in the link value, whose length byte caps it at 255). */
  maxEdgeDataBytes: z.int().min(0).max(255).default(255),
  /** Longest mutation id, in UTF-8 bytes (≥ 32: cascade ids fall back to a cut SHA-256 that must stay collision-safe). */
  maxMutationIdBytes: z.int().min(32).max(1024).default(128),
  /** event_time may be at most this far in the future of the processing wall clock. */
  maxFutureSkewMs: z.int().min(0).default(5 * 60_000),
  /** event_time must be after this instant (microseconds); guards against seconds/millis sent as micros. */
  minEventTimeMicros: z.coerce.bigint().default(946_684_800_000_000n), // 2000-01-01
}).refine((l) => l.maxRecordBytes > l.maxPropertyBagBytes, {
  path: ['maxRecordBytes'],
  message: 'must be greater than limits.maxPropertyBagBytes (an event carries its whole property bag)',
});

const topicsSchema = z.strictObject({
  /** fixed. Prefix of every topic name. */
  prefix: z.string().regex(/^[a-zA-Z0-9._-]*$/, 'may contain only letters, digits, ".", "_" and "-"').default('edgestream.'),
  /** fixed. Partitions of the input topic (and its repair topic). */
  partitions: z.int().min(1).max(1024).default(6),
  /** Replicas of every topic the project creates; `init` refuses a topic with another count. */
  replicationFactor: z.int().min(1).max(16).default(1),
  /**
   * `min.insync.replicas` of every topic the project creates: with the producers' acks=all a
   * write is acknowledged only once this many replicas have it (`init --apply` sets it on existing topics).
   */
  minInsyncReplicas: z.int().min(1).max(16).default(1),
}).refine((t) => t.minInsyncReplicas <= t.replicationFactor, {
  path: ['minInsyncReplicas'],
  message: 'must be at most topics.replicationFactor (a partition with fewer replicas than it could never accept an acks=all write)',
});

const cassandraSchema = z
  .strictObject({
    /** fixed. */
    keyspace: z.string().regex(/^[a-z][a-z0-9_]{0,47}$/, 'must be a lowercase CQL identifier').default('edgestream'),
    /** Shorthand for `replication: { class: 'SimpleStrategy', replicationFactor }` (single data centre, development). */
    replicationFactor: z.int().min(1).max(16).optional(),
    /** The keyspace's replication; `init` creates it so, refuses a keyspace that differs and `init --apply` alters it. */
    replication: replicationSchema.optional(),
    /** Levels per operation class (docs/architecture.md §4 "Consistency levels"). */
    consistency: consistencySchema.prefault({}),
  })
  .superRefine((c, ctx) => {
    if (c.replication !== undefined && c.replicationFactor !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['replication'], message: 'give either cassandra.replication or cassandra.replicationFactor (its SimpleStrategy shorthand), not both' });
    }
  })
  .transform(({ replicationFactor, replication, ...rest }) => ({
    ...rest,
    replication: replication ?? ({ class: 'SimpleStrategy', replicationFactor: replicationFactor ?? 1 } as Replication),
  }));

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
  /**
   * tunable. How long a REMOVE_NODE cascade keeps waiting for its node tombstone after the
   * fan-out group committed past the REMOVE_NODE (before that it waits however long the fan-out
   * lags); then it is dead-lettered (`cascade_failed`). Must cover the repair path, which may
   * still write the tombstone: at least `repairSpanMs`.
   */
  cascadeGiveUpAfterMs: z.int().min(1).default(10 * 60_000),
  /**
   * tunable. Kafka consumer session timeout: how long the group waits for a crashed
   * processor before its partitions move to a live one. Lower recovers faster; it must
   * stay within the broker's group.{min,max}.session.timeout.ms (6 s and 30 min by default).
   */
  sessionTimeoutMs: z.int().min(6_000).max(1_800_000).default(30_000),
  /** tunable. How often the degree recounter takes dirty marks: counts lag by up to this much; each round costs in proportion to the changes (recountMode delta), so shorter mostly costs per-round overheads. */
  recountIntervalMs: z.int().min(10).default(10_000),
  /** tunable. `delta` (default): a round reads the marked peers' links, their buckets of the degree_mirror and the bucket counts, not the whole partition; `full`: re-reads every dirty vertex's link partition (the old recounter; it voids the mirror, which the next delta round rebuilds once). */
  recountMode: z.enum(['delta', 'full']).default('delta'),
  /** tunable. Most degree_dirty marks one recount round takes; a round that took that many starts the next at once. Bounds a round's memory and the marks a failed round redoes. */
  recountMarksPerRound: z.int().min(1).max(1_000_000).default(10_000),
  /**
   * tunable. Foreground before background (docs/architecture.md §5 "Foreground before background"):
   * the recounter and the split chain send their store calls through a budget of at most
   * `maxConcurrency` in flight, halved while a canary point read (every `probeIntervalMs`) takes
   * longer than `maxCanaryLatencyMs` and grown by one while it does not, never below `minConcurrency`.
   */
  background: z
    .strictObject({
      maxCanaryLatencyMs: z.int().min(1).max(10_000).default(10),
      minConcurrency: z.int().min(1).max(256).default(4),
      maxConcurrency: z.int().min(1).max(1_024).default(32),
      probeIntervalMs: z.int().min(10).max(60_000).default(250),
    })
    .refine((b) => b.minConcurrency <= b.maxConcurrency, { path: ['minConcurrency'], message: 'must be at most runtime.background.maxConcurrency' })
    .prefault({}),
  /**
   * tunable. How the input topic's consumers (the fan-out and the REMOVE_NODE cascade) batch: a
   * fetch returns once `minBytes` of records are there or `maxWaitMs` passed. Under a light steady
   * stream (an interactive mix of a few hundred writes a second) a fetch otherwise returns each
   * record alone, and every record pays a chunk's fixed costs (its write waves, the offset commit,
   * the fetch). Adds up to `maxWaitMs` to write → visible; a backlog is fetched at once either way.
   */
  inputFetch: z
    .strictObject({
      minBytes: z.int().min(1).max(1 << 20).default(32_768),
      maxWaitMs: z.int().min(10).max(5_000).default(100),
    })
    .prefault({}),
  /** tunable. How often a processor serving metrics (`run --metrics-port`) polls its consumer groups' lag (scrapes read the last poll). */
  lagPollIntervalMs: z.int().min(100).default(15_000),
}).refine((r) => r.cascadeSettleMs > 2 * (r.writeRetryBudgetMs + r.writeLandingMarginMs) + r.tombstoneCacheTtlMs, {
  path: ['cascadeSettleMs'],
  message:
    'must be greater than 2 × (runtime.writeRetryBudgetMs + runtime.writeLandingMarginMs) + runtime.tombstoneCacheTtlMs (the tombstone write and an ADD that read "no tombstone" before it was visible must both have landed before the cascade pages)',
}).refine((r) => r.cascadeGiveUpAfterMs >= repairSpanMs(r), {
  path: ['cascadeGiveUpAfterMs'],
  message: 'must be at least the repair path\'s span (writeRetryBudgetMs, then per repair attempt its back-off and another budget): a REMOVE_NODE handed to repair may still write its tombstone until then',
});

/**
 * The longest an event handed to the repair topic takes to succeed or be dead-lettered when the
 * repair runner keeps up: the first budget, then per attempt `repairInitialBackoffMs · 2^(a-1)`
 * (capped at `repairMaxBackoffMs`) and another budget.
 */
export function repairSpanMs(r: { readonly writeRetryBudgetMs: number; readonly repairMaxAttempts: number; readonly repairInitialBackoffMs: number; readonly repairMaxBackoffMs: number }): number {
  let span = r.writeRetryBudgetMs;
  for (let a = 1; a <= r.repairMaxAttempts; a++) span += Math.min(r.repairMaxBackoffMs, r.repairInitialBackoffMs * 2 ** Math.min(a - 1, 31)) + r.writeRetryBudgetMs;
  return span;
}

/**
 * How long the degree recounter holds an intent (a mark written before its link cells) after it
 * first read it: every write of the attempt is sent within the write stage's retry budget plus
 * one landing margin (a wave that starts when the budget is spent still gets one attempt) and
 * lands or is dropped within another budget plus margin (docs/architecture.md §5 "Counts").
 */
export function recountIntentHoldMs(r: { readonly writeRetryBudgetMs: number; readonly writeLandingMarginMs: number }): number {
  return 2 * (r.writeRetryBudgetMs + r.writeLandingMarginMs);
}

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
  /**
   * tunable. How many refresh periods a split directory may go without a successful reload before
   * it is stale: then writers of splittable namespaces fail closed (their writes go to repair) and
   * readers read the original partitions. At least 2 (a reload that works lands within about one
   * period plus its own duration); the splitter's barrier grows with it (`splitMirrorBarrierMs`).
   */
  directoryMaxStaleRefreshes: z.int().min(2).max(100).default(3),
  /**
   * tunable. How far before its last load's start a split directory re-reads the `wide_rows` change log
   * on each refresh: at least the largest clock skew between a split stage's host and a directory's plus
   * the longest a `wide_rows` write can take to land. A change logged earlier than that is seen at the
   * next full reload (`directoryRebuildMs`); a split it concerned fails its verification safe meanwhile.
   */
  directoryLogLookbackMs: z.int().min(0).default(30_000),
  /** tunable. Period of a split directory's background full reloads of `wide_rows` (also run when the change log fills its filter). */
  directoryRebuildMs: z.int().min(1_000).default(600_000),
  /**
   * tunable. Most buckets of a COMPLETED hash split one multi-key read (a newest page's validation,
   * a multi-get) is sent to; a read whose keys fall in more buckets reads the original partition in
   * one request instead (it gets every write the buckets get, at the same write times).
   */
  multiKeyReadMaxBuckets: z.int().min(1).max(256).default(2),
  /** tunable. Target false-positive rate of the split Bloom filter. */
  bloomFalsePositiveRate: z.number().gt(0).lt(0.5).default(0.01),
  /** tunable. How long the verifier re-reads a cell that differs between the original and the split before calling it a mismatch (a write in flight to both). */
  verifySettleMs: z.int().min(0).default(5_000),
});

const DAY_MS = 86_400_000;

/**
 * Retention (docs/architecture.md §5 "Retention"): how long deletions are remembered and
 * how long records stay replayable. Cassandra purges a tombstone (a property delete or bag
 * clear, a `*_recent` delete) `gcGraceSeconds` after it was written; an event replayed after
 * that, older than the deletion, comes back. The resurrection horizon
 * `gcGraceSeconds − replaySafetyMarginSeconds` is how old an event_time `edgestream replay`
 * accepts without `--force`; the input and repair topics keep records no longer than it, so
 * whatever the topics still hold can be replayed safely.
 */
const retentionSchema = z
  .strictObject({
    /** fixed per table (set at creation: `ALTER TABLE` to change). Cassandra `gc_grace_seconds` of every namespace but the resurrection-safe ones (0). */
    gcGraceSeconds: z.int().min(3_600).max(2 ** 31 - 1).default(864_000),
    /** tunable. Subtracted from gcGraceSeconds for clock skew between producers and Cassandra and for events delayed in repair. */
    replaySafetyMarginSeconds: z.int().min(0).default(86_400),
    /** tunable (applied by `init` to new topics). retention.ms of the input and repair topics. */
    topicRetentionMs: z.int().min(3_600_000).default(7 * DAY_MS),
    /** tunable (applied by `init` to new topics). retention.ms of the dead-letter topics: read by people, so longer; replaying what is past the horizon needs --force. */
    dlqRetentionMs: z.int().min(3_600_000).default(30 * DAY_MS),
  })
  .superRefine((r, ctx) => {
    if (r.replaySafetyMarginSeconds >= r.gcGraceSeconds) {
      ctx.addIssue({ code: 'custom', path: ['replaySafetyMarginSeconds'], message: `must be less than retention.gcGraceSeconds (${r.gcGraceSeconds}): the resurrection horizon is their difference` });
    } else if (r.topicRetentionMs > (r.gcGraceSeconds - r.replaySafetyMarginSeconds) * 1000) {
      ctx.addIssue({
        code: 'custom',
        path: ['topicRetentionMs'],
        message: `must be at most the resurrection horizon, (retention.gcGraceSeconds − retention.replaySafetyMarginSeconds) × 1000 = ${(r.gcGraceSeconds - r.replaySafetyMarginSeconds) * 1000} ms, so that everything the input topic holds can be replayed without resurrecting deleted data`,
      });
    }
  });

/** Is `host` an address only this machine reaches (127.0.0.0/8, ::1, localhost)? */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Who may call the HTTP API (docs/architecture.md §8). `none`: everyone, with every scope; allowed
 * on a loopback host only unless `allowUnauthenticated`. `jwt`: a bearer JWT verified against
 * `jwt.publicKeyFile` (PEM, SPKI) or `jwt.jwksFile` (a local JWKS), with its `scope` claim
 * (`read`, `write`, `write:<edgeType>`, `admin`) deciding what it may do.
 */
const serverAuthSchema = z
  .strictObject({
    mode: z.enum(['none', 'jwt']).default('none'),
    /** Mode none on a host other machines reach: the operator says so explicitly. */
    allowUnauthenticated: z.boolean().default(false),
    jwt: z
      .strictObject({
        publicKeyFile: z.string().min(1).optional(),
        jwksFile: z.string().min(1).optional(),
        issuer: z.string().min(1),
        audience: z.string().min(1),
        algorithms: z.array(z.enum(['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA'])).min(1).default(['ES256']),
        /** Seconds of clock skew allowed on exp and nbf. */
        clockToleranceSeconds: z.int().min(0).max(300).default(30),
      })
      .refine((j) => (j.publicKeyFile === undefined) !== (j.jwksFile === undefined), { message: 'give exactly one of publicKeyFile or jwksFile' })
      .optional(),
    /** GET /metrics: `open`, or `authenticated` (any valid token). */
    metrics: z.enum(['open', 'authenticated']).default('open'),
  })
  .refine((a) => a.mode !== 'jwt' || a.jwt !== undefined, { message: "mode 'jwt' needs server.auth.jwt { publicKeyFile | jwksFile, issuer, audience }", path: ['jwt'] });

/** `edgestream serve`: the HTTP API's listener and limits (docs/architecture.md §8). All tunable. */
const serverSchema = z.strictObject({
  /** Port to listen on (0: any free port); `--port` overrides it. */
  port: z.int().min(0).max(65_535).default(8080),
  /** Address to listen on; `--host` overrides it. */
  host: z.string().min(1).default('127.0.0.1'),
  /** Largest request body, in bytes; a larger one is answered 413. */
  bodyLimitBytes: z.int().min(1_024).max(64 << 20).default(256 << 10),
  /** Requests one client address may make per `rateLimitWindowMs` (429 beyond). */
  rateLimitMax: z.int().min(1).default(1_000),
  rateLimitWindowMs: z.int().min(100).default(1_000),
  /** Longest a read carrying a consistency token waits for the fan-out before answering 503. */
  readYourWritesTimeoutMs: z.int().min(0).max(60_000).default(5_000),
  /** How often committed offsets are polled while some read waits for a token. */
  offsetPollIntervalMs: z.int().min(10).max(10_000).default(100),
  /** On SIGTERM: longest the server drains in-flight requests before closing anyway. */
  shutdownGraceMs: z.int().min(0).default(15_000),
  /**
   * Who sets a mutation's event time, on which last-write-wins runs. `reject` (default): the server
   * stamps every write with its clock and answers a body carrying `eventTime` with 400. `accept`: for
   * callers trusted with the clock (every caller that may write: scopes do not narrow it); their time must
   * lie within `limits.maxFutureSkewMs` ahead and the resurrection horizon behind, else 400.
   */
  clientEventTime: z.enum(['reject', 'accept']).default('reject'),
  /** Reads (GET /v1/...) served at once, server-wide; one more is answered 503 + Retry-After. A token wait does not count, the read after it does. */
  maxReadsInFlight: z.int().min(1).max(100_000).default(256),
  /** Reads waiting for a consistency token at once (`?after=`); one more is answered 503 + Retry-After. */
  maxTokenWaiters: z.int().min(1).max(100_000).default(1_024),
  /** How long a /readyz answer is reused: probes of Kafka, the registry and Cassandra run at most once per this, however often it is asked. */
  readinessCacheMs: z.int().min(0).max(60_000).default(1_000),
  /** Longest a client may take to send a whole request (headers and body); a slowly trickled body is cut (408). */
  requestTimeoutMs: z.int().min(1_000).max(600_000).default(10_000),
  /** Longest a connection may stay idle, a request being served included; above readYourWritesTimeoutMs + reads.deadlineMs. */
  connectionTimeoutMs: z.int().min(1_000).max(600_000).default(60_000),
  /** TLS on the listener (PEM files read at start); absent: plain HTTP (behind a TLS-terminating proxy, or loopback). */
  tls: z.strictObject({ certFile: z.string().min(1), keyFile: z.string().min(1) }).optional(),
  auth: serverAuthSchema.prefault({}),
}).refine((s) => s.connectionTimeoutMs > s.readYourWritesTimeoutMs, {
  path: ['connectionTimeoutMs'],
  message: 'must be above server.readYourWritesTimeoutMs (a read waiting for its token would lose its connection)',
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
  /** Where the outside systems are (docs/configuration-shape.md); absent: the environment, else the local stack. */
  cluster: clusterSchema.optional(),
  limits: limitsSchema.default(limitsSchema.parse({})),
  topics: topicsSchema.default(topicsSchema.parse({})),
  cassandra: cassandraSchema.default(cassandraSchema.parse({})),
  runtime: runtimeSchema.default(runtimeSchema.parse({})),
  wide: wideSchema.default(wideSchema.parse({})),
  retention: retentionSchema.default(retentionSchema.parse({})),
  server: serverSchema.default(serverSchema.parse({})),
  reads: readsSchema.default(readsSchema.parse({})),
});

/** Age past which a split directory is stale (writers fail closed, readers read the original). */
export function directoryMaxStaleMs(config: Pick<EdgestreamConfig, 'wide'>): number {
  return config.wide.directoryMaxStaleRefreshes * config.wide.directoryRefreshMs;
}

/**
 * How old (by event_time) a replayed event may be without `--force`: a deletion it could
 * predate is younger than gc_grace_seconds minus the margin, so Cassandra still holds its
 * tombstone and last-write-wins keeps it deleted.
 */
export function resurrectionHorizonMs(config: Pick<EdgestreamConfig, 'retention'>): number {
  return (config.retention.gcGraceSeconds - config.retention.replaySafetyMarginSeconds) * 1000;
}

/** The oldest event_time that is safe to process at `nowMicros`: now − the resurrection horizon. Older is refused by the fan-out and by `replay` without `--force`. */
export function resurrectionHorizonStartMicros(config: Pick<EdgestreamConfig, 'retention'>, nowMicros: bigint): bigint {
  return nowMicros - BigInt(resurrectionHorizonMs(config)) * 1000n;
}

/** "the resurrection horizon (9.0 days = retention.gcGraceSeconds 864000 − retention.replaySafetyMarginSeconds 86400)", for messages. */
export function describeResurrectionHorizon(config: Pick<EdgestreamConfig, 'retention'>): string {
  const { gcGraceSeconds, replaySafetyMarginSeconds } = config.retention;
  return `the resurrection horizon (${(resurrectionHorizonMs(config) / 86_400_000).toFixed(1)} days = retention.gcGraceSeconds ${gcGraceSeconds} − retention.replaySafetyMarginSeconds ${replaySafetyMarginSeconds})`;
}

/**
 * How long after a split plan is recorded every write of the partition is
 * mirrored into the split layout or refused: a writer acts only on a directory
 * whose last successful reload began at most `directoryMaxStaleMs` ago (else it
 * fails closed), so any write it starts after that includes the plan; a write it
 * started before may be retried for `runtime.writeRetryBudgetMs` (a later
 * attempt goes through the repair runner, which mirrors too) and land up to
 * `runtime.writeLandingMarginMs` after the runtime gave up on it. The splitter
 * copies only after it. A writer paused longer than the margin breaks the bound;
 * the verifier then FAILS the split.
 */
export function splitMirrorBarrierMs(config: EdgestreamConfig): number {
  return directoryMaxStaleMs(config) + config.runtime.writeRetryBudgetMs + config.runtime.writeLandingMarginMs;
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
