import { createRequire } from 'node:module';
import avro from 'avsc';

/** Thrown inside avsc when one decode takes more steps than the guard allows. */
export class StepLimitExceeded extends Error {
  override readonly name = 'StepLimitExceeded';
}

export interface AvscStepGuard {
  /** Starts counting a new decode. */
  reset(): void;
  /** Steps counted since reset, and whether the limit was hit. */
  readonly steps: number;
  readonly tripped: boolean;
  uninstall(): void;
}

// Every read avsc's types make goes through these Tap methods, except null items (no bytes): those count at NullType.
const TAP_READS = [
  'readBoolean', 'skipBoolean', 'readInt', 'readLong', 'skipInt', 'skipLong', 'readFloat', 'skipFloat', 'readDouble', 'skipDouble',
  'readFixed', 'skipFixed', 'readBytes', 'skipBytes', 'readString', 'skipString', 'unpackLongBytes',
] as const;

type Methods = Record<string, (...args: unknown[]) => unknown>;

/**
 * Counts avsc's decoding steps (avsc 5.7 lib/utils.js Tap; test-only reach
 * into its internals) and throws StepLimitExceeded past `limit` for one
 * decode: a decode stuck looping on a declared count fails the case in
 * milliseconds instead of hanging the worker (a synchronous loop cannot be
 * interrupted by a timer).
 */
export function installAvscStepGuard(limit: number): AvscStepGuard {
  const { Tap } = createRequire(import.meta.url)('avsc/lib/utils.js') as { Tap: { prototype: Methods } };
  const nullType = (avro.types.NullType as unknown as { prototype: Methods }).prototype;
  const originals: [Methods, string, (...args: unknown[]) => unknown][] = [];
  let steps = 0;
  let tripped = false;
  const wrap = (proto: Methods, name: string) => {
    const original = proto[name];
    if (typeof original !== 'function') return;
    originals.push([proto, name, original]);
    proto[name] = function (this: unknown, ...args: unknown[]) {
      if (++steps > limit) {
        tripped = true;
        throw new StepLimitExceeded(`avsc took more than ${limit} steps for one decode`);
      }
      return original.apply(this, args);
    };
  };
  for (const name of TAP_READS) wrap(Tap.prototype, name);
  wrap(nullType, '_read');
  wrap(nullType, '_skip');
  return {
    reset() {
      steps = 0;
      tripped = false;
    },
    get steps() {
      return steps;
    },
    get tripped() {
      return tripped;
    },
    uninstall() {
      for (const [proto, name, original] of originals) proto[name] = original;
    },
  };
}
