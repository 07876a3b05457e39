/** An integer flag of a bench (`1_000_000` allowed), `fallback` when absent; an error names the flag and the range. */
export function intFlag(name: string, raw: string | undefined, fallback: number, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  if (raw === undefined) return fallback;
  const n = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer in [${min}, ${max}], got "${raw}"`);
  return n;
}
