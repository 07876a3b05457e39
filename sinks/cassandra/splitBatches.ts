import type { BoundStatement } from './cassandraSession.ts';

/** Rough per-statement overhead in a batch frame, on top of the blob and text payloads. */
const STATEMENT_OVERHEAD_BYTES = 64;

/**
 * Cuts one partition's statements into batches of at most `maxStatements`
 * and about `maxBytes` of payload each. A single-partition unlogged batch is
 * one mutation server-side (cheap, atomic per partition, exempt from the
 * multi-partition batch-size guard), but the whole mutation must still fit
 * Cassandra's max mutation size (half a commit-log segment, 16 MiB by default).
 */
export function splitBatches(statements: readonly BoundStatement[], maxStatements: number, maxBytes: number): BoundStatement[][] {
  const batches: BoundStatement[][] = [];
  let current: BoundStatement[] = [];
  let bytes = 0;
  for (const s of statements) {
    const size = payloadBytes(s);
    if (current.length > 0 && (current.length >= maxStatements || bytes + size > maxBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(s);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** The summed payload of `statements`, as `splitBatches` counts it. */
export function statementsBytes(statements: readonly BoundStatement[]): number {
  let bytes = 0;
  for (const s of statements) bytes += payloadBytes(s);
  return bytes;
}

/**
 * A statement's payload, never under its real size: a text param counts 3
 * bytes per UTF-16 unit (UTF-8's most), so nothing is encoded just to measure it.
 */
function payloadBytes(s: BoundStatement): number {
  let bytes = STATEMENT_OVERHEAD_BYTES;
  for (const p of s.params) {
    bytes += paramBytes(p);
  }
  return bytes;
}

/** A bound value's bytes; a list (a `key IN ?`) is its elements, each with a 4-byte length. */
function paramBytes(p: unknown): number {
  if (p instanceof Uint8Array) return p.length;
  if (typeof p === 'string') return p.length * 3;
  if (Array.isArray(p)) return p.reduce((sum: number, e: unknown) => sum + 4 + paramBytes(e), 0);
  return 8;
}
