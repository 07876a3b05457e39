/**
 * Parses `--from-offset`/`--to-offset` values: `<offset>` for every partition, or
 * `<partition>:<offset>[,<partition>:<offset>...]`. Throws naming the flag.
 */
export function parsePartitionOffsets(flag: string, value: string): { all?: bigint; byPartition: Map<number, bigint> } {
  const byPartition = new Map<number, bigint>();
  if (/^\d+$/.test(value)) return { all: BigInt(value), byPartition };
  for (const part of value.split(',')) {
    const m = /^(\d+):(\d+)$/.exec(part.trim());
    if (!m?.[1] || !m[2]) throw new Error(`${flag}: expected <offset> or <partition>:<offset>[,...], got "${value}"`);
    byPartition.set(Number(m[1]), BigInt(m[2]));
  }
  return { byPartition };
}

/** Parses an ISO-8601 time or epoch milliseconds; throws naming the flag. */
export function parseTimeFlag(flag: string, value: string): number {
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms)) throw new Error(`${flag}: expected an ISO-8601 time or epoch milliseconds, got "${value}"`);
  return ms;
}
