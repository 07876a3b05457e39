import { z } from 'zod';
import { StoreError } from './StoreError.ts';

/**
 * The backend-neutral part of a store's config: the namespaces and the value
 * size limits. Every backend parses the same declarations, so a config that
 * one backend rejects is rejected by all of them, with the same message.
 */

const KIB = 1024;
const MIB = 1024 * KIB;

/**
 * Namespace names become Cassandra table names, so they are CQL identifiers
 * of at most 48 characters (Cassandra's table-name limit). `__` is reserved
 * for internal companion tables (`<namespace>__chunks`), which is also why a
 * chunked namespace's name may be at most 40 characters long.
 */
export const NAMESPACE_NAME_PATTERN = /^[a-z][a-z0-9_]{0,47}$/;
export const CHUNK_TABLE_SUFFIX = '__chunks';
const MAX_CHUNKED_NAMESPACE_LENGTH = 48 - CHUNK_TABLE_SUFFIX.length;

export const namespaceNameSchema = z
  .string()
  .regex(NAMESPACE_NAME_PATTERN, 'must match ^[a-z][a-z0-9_]{0,47}$ (a lower-case CQL identifier)')
  .refine((s) => !s.includes('__'), 'must not contain "__" (reserved for internal tables)');

/** Default size up to which a value is stored inline (larger ones are chunked). */
export const DEFAULT_MAX_INLINE_VALUE_BYTES = 256 * KIB;

export const valueLimitsSchema = z.object({
  /** Values up to this size are stored inline in the namespace's table; larger ones are chunked. */
  maxInlineValueBytes: z.int().min(1).max(16 * MIB).default(DEFAULT_MAX_INLINE_VALUE_BYTES),
  /** Size of each chunk of a chunked value. */
  chunkBytes: z.int().min(1).max(16 * MIB).default(256 * KIB),
  /** The largest value accepted at all; larger puts throw `too_large`. */
  maxValueBytes: z.int().min(0).max(1024 * MIB).default(64 * MIB),
});

export const namespaceConfigSchema = z.strictObject({
  name: namespaceNameSchema,
  /**
   * Whether values above `maxInlineValueBytes` are chunked (true) or rejected
   * (false). Chunking costs one extra small write per put and delete (the
   * garbage collection of older chunks), so namespaces of small values
   * (links) should turn it off. Changing it for existing data is an offline
   * migration: values chunked earlier are unreadable with chunking off.
   */
  chunking: z.boolean().default(true),
  maxInlineValueBytes: z.int().min(1).max(16 * MIB).optional(),
  chunkBytes: z.int().min(1).max(16 * MIB).optional(),
  /**
   * Deleted cells of this namespace may reappear without harm (work marks a
   * consumer deletes once handled: a resurrected one only repeats idempotent
   * work). Backends may then drop deletion markers at once (Cassandra:
   * `gc_grace_seconds = 0`, so compaction purges them), which keeps a
   * queue-like namespace from piling up tombstones that every scan skips and
   * that fail reads past Cassandra's tombstone_failure_threshold.
   */
  resurrectionSafe: z.boolean().default(false),
  /**
   * Backends may drop cells of this namespace this long after they were written
   * (Cassandra: `default_time_to_live`); others keep them. Only for namespaces
   * whose readers never need an old cell (the `wide_rows` change log).
   */
  expireAfterSeconds: z.int().min(1).max(630_720_000).optional(),
});

export const namespacesSchema = z
  .array(namespaceConfigSchema)
  .superRefine((namespaces, ctx) => {
    const seen = new Set<string>();
    namespaces.forEach((ns, i) => {
      if (seen.has(ns.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate namespace '${ns.name}'` });
      seen.add(ns.name);
      if (ns.chunking && ns.name.length > MAX_CHUNKED_NAMESPACE_LENGTH) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'name'],
          message: `a chunked namespace name may be at most ${MAX_CHUNKED_NAMESPACE_LENGTH} characters (its chunk table adds '${CHUNK_TABLE_SUFFIX}')`,
        });
      }
    });
  })
  .readonly();

export type NamespaceConfigInput = z.input<typeof namespaceConfigSchema>;
export type ValueLimits = z.output<typeof valueLimitsSchema>;

/** One namespace with every limit resolved. */
export interface NamespaceSettings {
  readonly name: string;
  readonly chunking: boolean;
  readonly maxInlineValueBytes: number;
  readonly chunkBytes: number;
  readonly maxValueBytes: number;
  readonly resurrectionSafe: boolean;
  readonly expireAfterSeconds: number | undefined;
}

export function resolveNamespaces(
  namespaces: readonly z.output<typeof namespaceConfigSchema>[],
  limits: ValueLimits,
): readonly NamespaceSettings[] {
  return namespaces.map((ns) => {
    const maxInlineValueBytes = ns.maxInlineValueBytes ?? limits.maxInlineValueBytes;
    return Object.freeze({
      name: ns.name,
      chunking: ns.chunking,
      maxInlineValueBytes,
      chunkBytes: ns.chunkBytes ?? limits.chunkBytes,
      // Without chunking the inline limit is the hard limit.
      maxValueBytes: ns.chunking ? limits.maxValueBytes : Math.min(limits.maxValueBytes, maxInlineValueBytes),
      resurrectionSafe: ns.resurrectionSafe,
      expireAfterSeconds: ns.expireAfterSeconds,
    });
  });
}

/**
 * Parses `input` with `schema` or throws a non-retriable `invalid_config`
 * StoreError whose message names every offending field by its path.
 */
export function parseConfig<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
  throw new StoreError('invalid_config', `invalid ${what}: ${details}`, { cause: parsed.error });
}
