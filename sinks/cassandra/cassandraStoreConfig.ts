import type { ConnectionOptions } from 'node:tls';
import { z } from 'zod';
import { namespacesSchema, valueLimitsSchema } from '../store/storeConfig.ts';
import { quorumOverlapProblem } from './quorumOverlap.ts';
import { consistencySchema, replicationSchema } from '../../schemas/config/cassandraConfig.ts';

/**
 * Everything `createCassandraStore` accepts, declared once with defaults and
 * validated before any connection is made. Identifiers that end up in DDL
 * (keyspace, namespaces, data-center names) are restricted to safe patterns
 * here, so no raw input ever reaches CQL text.
 */

const MIB = 1024 * 1024;

export { CONSISTENCY_LEVELS, type ConsistencyLevel, type Replication } from '../../schemas/config/cassandraConfig.ts';

export const COMPACTION_STRATEGIES = [
  'SizeTieredCompactionStrategy',
  'LeveledCompactionStrategy',
  'UnifiedCompactionStrategy',
  'TimeWindowCompactionStrategy',
] as const;
export const COMPRESSORS = ['LZ4Compressor', 'ZstdCompressor', 'SnappyCompressor', 'DeflateCompressor', 'none'] as const;

export const tableOptionsSchema = z.strictObject({
  /** Omitted options keep the server's defaults. */
  compaction: z.enum(COMPACTION_STRATEGIES).optional(),
  compression: z.enum(COMPRESSORS).optional(),
  gcGraceSeconds: z.int().min(0).max(2 ** 31 - 1).optional(),
});
export type TableOptions = z.output<typeof tableOptionsSchema>;

export const cassandraStoreConfigSchema = z.strictObject({
  /** `host` or `host:port` strings. */
  contactPoints: z.array(z.string().min(1)).min(1).readonly(),
  localDataCenter: z.string().min(1),
  keyspace: z.string().regex(/^[a-z][a-z0-9_]{0,47}$/, 'must match ^[a-z][a-z0-9_]{0,47}$ (a lower-case CQL identifier)'),
  /** Only used when `init` creates the keyspace; an existing keyspace is never altered. */
  replication: replicationSchema.default({ class: 'SimpleStrategy', replicationFactor: 1 }),
  namespaces: namespacesSchema,
  ...valueLimitsSchema.shape,
  /**
   * Levels per operation class (docs/architecture.md §4 "Consistency levels"): `{ writes, reads,
   * serial }`, or one level for reads and writes alike. Reads must overlap writes (R + W > RF:
   * the fan-out reads a link before it writes the next op), so ONE/LOCAL_ONE are refused when
   * the replication counts more than one replica.
   */
  consistency: z.preprocess((v) => (typeof v === 'string' ? { writes: v, reads: v } : v), consistencySchema).default(consistencySchema.parse({})),
  tableOptions: tableOptionsSchema.default({}),
  /** Partition groups of one `mutateMany` written at the same time. */
  mutationConcurrency: z.int().min(1).max(1024).default(16),
  /** Chunk reads/writes and chunk collections in flight per value or partition group. */
  chunkConcurrency: z.int().min(1).max(64).default(4),
  /**
   * Write the rows of different namespaces that share an id (`T_out[v]` and
   * `T_out_recent[v]`) in one unlogged batch: one token, so Cassandra applies
   * it as one mutation. Off: one batch per (namespace, id).
   */
  colocateWrites: z.boolean().default(true),
  /**
   * Token-aware batching: the rows of up to this many partitions that live on
   * the same replica set share one unlogged batch (`mergeByReplicaSet`), one
   * request instead of one per partition. The default stays within
   * Cassandra's `unlogged_batch_across_partitions_warn_threshold` (10); 1 turns it off.
   */
  maxBatchPartitions: z.int().min(1).max(100).default(10),
  /** ...and up to about this many payload bytes per such batch (Cassandra's `batch_size_warn_threshold`, 5 KiB). */
  maxCrossPartitionBatchBytes: z.int().min(256).max(50 * 1024).default(5 * 1024),
  /** Single-partition unlogged batches are cut at this many statements... */
  maxBatchStatements: z.int().min(1).max(1000).default(64),
  /** ...or at roughly this many payload bytes, well under Cassandra's mutation size limit. */
  maxBatchBytes: z.int().min(1).max(8 * MIB).default(MIB),
  /** `getCells` and `sliceMany` read at most this many partitions per request (`id IN ?`); more go out as several requests. */
  readIdsPerRequest: z.int().min(1).max(1000).default(100),
  /**
   * `getCells` packs several partitions into one request only while ids × distinct keys (the
   * cells Cassandra looks up for `id IN ? AND key IN ?`) stays within this: 100 tombstones of one
   * key fit one request, 16 links of different keys too. 16 scattered cells per request cost
   * Cassandra about half the CPU of 16 single-cell requests on the 2-core stack.
   */
  readCellsPerRequest: z.int().min(1).max(10_000).default(256),
  /** `getKeys` reads at most this many keys of one partition per request (`key IN ?`); a page of the reader fits one. */
  readKeysPerRequest: z.int().min(1).max(5000).default(5000),
  /** How often a read re-reads a row whose chunks went missing (a concurrent overwrite collected them). */
  chunkReadAttempts: z.int().min(1).max(10).default(3),
  requestTimeoutMs: z.int().min(100).max(600_000).default(12_000),
  /** Password authentication (cassandra-driver's PlainTextAuthProvider). */
  credentials: z.strictObject({ username: z.string().min(1), password: z.string() }).optional(),
  /** TLS to every node (Node's tls.connect options: ca, cert, key, rejectUnauthorized, …). */
  sslOptions: z.custom<ConnectionOptions>((v) => typeof v === 'object' && v !== null, 'must be tls.ConnectionOptions').optional(),
}).superRefine((c, ctx) => {
  const problem = quorumOverlapProblem({ read: c.consistency.reads, write: c.consistency.writes }, c.replication, c.localDataCenter);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', path: ['consistency'], message: problem });
});

export type CassandraStoreConfig = z.input<typeof cassandraStoreConfigSchema>;
export type ParsedCassandraStoreConfig = z.output<typeof cassandraStoreConfigSchema>;
