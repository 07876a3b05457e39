import { InvalidArgumentError } from 'commander';
import type { TraversalHop } from '../reads/index.ts';
import { isReadArgumentError } from '../reads/ReadArgumentError.ts';

/** `--hops follows:out,likes:in:50` → hops (an optional third part caps that hop); the reader checks types and caps. */
export function parseHops(value: string): TraversalHop[] {
  return value.split(',').map((part) => {
    const [type, direction, cap, ...rest] = part.trim().split(':');
    const capValue = cap === undefined ? undefined : Number(cap);
    if (!type || (direction !== 'out' && direction !== 'in') || rest.length > 0 || (capValue !== undefined && !Number.isInteger(capValue))) {
      throw new InvalidArgumentError(`--hops expects <type>:out|in[:cap][,...], e.g. follows:out:100,likes:in; got "${part}"`);
    }
    return capValue === undefined ? { type, direction } : { type, direction, cap: capValue };
  });
}

/** `--keys a,b` → property names (empty names are left for the reader to refuse). */
export const parseKeys = (value: string): string[] => value.split(',').map((k) => k.trim());

/** A positive integer flag value, naming the flag when it is not one. */
export const positiveIntFlag = (flag: string) => (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError(`${flag} must be a positive integer, got "${value}"`);
  return n;
};

/** A time flag in µs since the epoch (a decimal integer), naming the flag when it is not one; the reader checks its range. */
export const microsFlag = (flag: string) => (value: string): bigint => {
  if (!/^\d{1,19}$/.test(value)) throw new InvalidArgumentError(`${flag} must be a time in µs since the epoch (a decimal integer), got "${value}"`);
  return BigInt(value);
};

/** Reader argument → the flag or positional a CLI user typed. */
const FLAG_OF: Readonly<Record<string, string>> = {
  limit: '--limit',
  low: '--low',
  high: '--high',
  dsts: '<dst...>',
  cursor: '--cursor',
  order: '--order',
  keys: '--keys',
  hops: '--hops',
  perHopCap: '--cap',
  concurrency: '--concurrency',
  maxRows: '--max-rows',
  maxQueries: '--max-queries',
  deadlineMs: '--deadline',
  type: '<type>',
  vertex: '<vertex>',
  src: '<src>',
  dst: '<dst>',
  start: '<start>',
  direction: '[direction]',
};

/** Runs `fn`, restating a reader's argument error in terms of the CLI's flags. */
export async function withFlagNames<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (!isReadArgumentError(e)) throw e;
    const root = e.argument.replace(/[.[].*$/, '');
    const flag = FLAG_OF[root] ?? e.argument;
    const detail = e.argument === root ? '' : ` (${e.argument.slice(root.length).replace(/^\[(\d+)\]/, (_, i: string) => `item ${Number(i) + 1}`)})`;
    throw new Error(`${flag}${detail}: ${e.reason}`, { cause: e });
  }
}
