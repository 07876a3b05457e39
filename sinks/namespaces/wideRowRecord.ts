import { z } from 'zod';
import { NamespaceCodecError } from './NamespaceCodecError.ts';
import type { SplitLayout, SplitTarget } from './splitLayout.ts';
import { decodeUtf8, encodeUtf8 } from './utf8Text.ts';

/**
 * A `wide_rows` cell: partition = the wide partition's namespace, key = its
 * id (UTF-8), value = this record as versioned JSON. One record per wide
 * partition, rewritten at every status change at write time `version`: the
 * replaced record's version + 1, never a clock (processors/split
 * `nextStamps`), so the last transition wins whatever the arrival order and
 * whatever the writers' clocks, and a stage acting on a stale read loses.
 *
 * Lifecycle (docs/architecture.md §6): PLANNING (planner scanning; nothing
 * else happens yet) → PLANNED (layout fixed; writers start mirroring) →
 * SPLITTING (copy under way) → SPLIT (copied) → COMPLETED (verified; readers
 * use the split) or FAILED (readers keep the original; `split` re-runs it as
 * generation + 1). Times are microseconds since the epoch (a Number is exact
 * up to the year 2255).
 */
export const WIDE_ROW_STATUSES = ['PLANNING', 'PLANNED', 'SPLITTING', 'SPLIT', 'COMPLETED', 'FAILED'] as const;
export type WideRowStatus = (typeof WIDE_ROW_STATUSES)[number];

/** Statuses in which every writer of the partition also writes the split layout. */
export const MIRRORED_STATUSES: ReadonlySet<WideRowStatus> = new Set(['PLANNED', 'SPLITTING', 'SPLIT', 'COMPLETED']);

const verificationSchema = z.strictObject({
  originalChecksum: z.string(),
  splitChecksum: z.string(),
  /** Keys compared (present on either side at or before the frontier). */
  rowsCompared: z.number().int().min(0),
  /** Keys written after the verification frontier on either side: left out of both checksums. */
  movedKeys: z.number().int().min(0),
  /** Keys that differed at first sight and agreed on a re-read (a write in flight to both). */
  settledKeys: z.number().int().min(0),
  /** Keys that still differed after `wide.verifySettleMs`. */
  mismatchedKeys: z.number().int().min(0),
  /** A few mismatched keys (hex), for the operator. */
  sample: z.array(z.string()),
  /** The verification frontier (µs): cells written later are left out on both sides. */
  frontier: z.number(),
  /** The original's checksum equals the planner's pre-split checksum (nothing was written to it since the plan). */
  originalUnchangedSincePlan: z.boolean(),
});

const recordSchema = z.strictObject({
  v: z.literal(1),
  namespace: z.string(),
  partitionId: z.string(),
  status: z.enum(WIDE_ROW_STATUSES),
  generation: z.number().int().min(1),
  /** Runs of the chain for this partition (plans recorded). */
  attempts: z.number().int().min(1),
  splitNamespace: z.string(),
  strategy: z.enum(['hash', 'range']),
  buckets: z.number().int().min(0),
  /** Range strategy: the smallest key of buckets 1..n-1, hex. */
  boundaries: z.array(z.string()),
  /** Planner's scan: live rows, their bytes (key + value) and the pre-split checksum. */
  rows: z.number().int().min(0),
  bytes: z.number().int().min(0),
  checksum: z.string(),
  detected: z.strictObject({ bytesRead: z.number(), rowsRead: z.number(), rowsReturned: z.number(), detectedAt: z.number() }).optional(),
  plannedAt: z.number().optional(),
  copyStartedAt: z.number().optional(),
  copiedAt: z.number().optional(),
  copiedRows: z.number().int().min(0).optional(),
  verifiedAt: z.number().optional(),
  verification: verificationSchema.optional(),
  failure: z.string().optional(),
  /** The record's write time: the replaced record's + 1 (1 for the first). Absent in records written before versions; their write time is `updatedAt`. */
  version: z.number().int().min(1).optional(),
  /** Wall clock (µs) of the writer at this change: for people, never for ordering. */
  updatedAt: z.number(),
});

export type WideRowRecord = Omit<z.output<typeof recordSchema>, 'v'>;
export type WideRowVerification = z.output<typeof verificationSchema>;

const CODEC = 'WideRowRecord';

export function encodeWideRowRecord(record: WideRowRecord): Uint8Array {
  return encodeUtf8(JSON.stringify({ v: 1, ...record }), CODEC);
}

export function decodeWideRowRecord(bytes: Uint8Array): WideRowRecord {
  let json: unknown;
  try {
    json = JSON.parse(decodeUtf8(bytes, CODEC));
  } catch (e) {
    throw new NamespaceCodecError(CODEC, `not JSON: ${(e as Error).message}`);
  }
  const parsed = recordSchema.safeParse(json);
  if (!parsed.success) throw new NamespaceCodecError(CODEC, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const { v: _v, ...record } = parsed.data;
  return record;
}

/** The record's write time in wide_rows: its `version`, or `updatedAt` for a record written before versions. */
export function versionOf(record: Pick<WideRowRecord, 'version' | 'updatedAt'>): number {
  return record.version ?? record.updatedAt;
}

/** The key of a record in `wide_rows[namespace]`. */
export const encodeWideRowKey = (partitionId: string): Uint8Array => encodeUtf8(partitionId, 'wideRowKey');
export const decodeWideRowKey = (bytes: Uint8Array): string => decodeUtf8(bytes, 'wideRowKey');

/** The bucket layout a record describes. */
export function layoutOf(record: Pick<WideRowRecord, 'strategy' | 'buckets' | 'boundaries'>): SplitLayout {
  return record.strategy === 'hash'
    ? { strategy: 'hash', buckets: record.buckets }
    : { strategy: 'range', boundaries: record.boundaries.map((h) => Uint8Array.from(Buffer.from(h, 'hex'))) };
}

/** Where a record's split lives. */
export function splitTargetOf(record: WideRowRecord): SplitTarget {
  return { splitNamespace: record.splitNamespace, partitionId: record.partitionId, generation: record.generation, layout: layoutOf(record) };
}
