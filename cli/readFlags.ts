import { InvalidArgumentError } from 'commander';
import { isReadArgumentError, type TraversalHop } from '../reads/index.ts';

/** `--hops follows:out,likes:in` → hops; the reader checks the types against the config. */
export function parseHops(value: string): TraversalHop[] {
  return value.split(',').map((part) => {
    const [type, direction, ...rest] = part.trim().split(':');
    if (!type || (direction !== 'out' && direction !== 'in') || rest.length > 0) {
      throw new InvalidArgumentError(`--hops expects <type>:out|in[,...], e.g. follows:out,likes:in; got "${part}"`);
    }
    return { type, direction };
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

/** Reader argument → the flag or positional a CLI user typed. */
const FLAG_OF: Readonly<Record<string, string>> = {
  limit: '--limit',
  cursor: '--cursor',
  order: '--order',
  keys: '--keys',
  hops: '--hops',
  perHopCap: '--cap',
  concurrency: '--concurrency',
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
