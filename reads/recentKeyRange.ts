import { encodeRecentKey, MAX_TIME } from '../sinks/namespaces/index.ts';
import { compareBytes } from '../sinks/store/index.ts';

/** Key bounds of a `*_recent` slice: exclusive at both ends, either absent when open. */
export interface RecentKeyRange {
  readonly after?: Uint8Array;
  readonly before?: Uint8Array;
}

/**
 * The `*_recent` keys (invTime(time) ‖ peer) of the times in [low, high),
 * as exclusive key bounds. `after` is invTime(high) ‖ 0xff: UTF-8 never
 * holds 0xff, so it lies above every key of time `high` and below every key
 * of an older time. `before` is invTime(low - 1) alone, below every key of
 * time low - 1. `high` may be MAX_TIME + 1 (open); low = 0 is open too.
 */
export function recentKeyRange(low: bigint, high: bigint): RecentKeyRange {
  return {
    ...(high > MAX_TIME ? {} : { after: Uint8Array.from([...encodeRecentKey(high, ''), 0xff]) }),
    ...(low === 0n ? {} : { before: encodeRecentKey(low - 1n, '') }),
  };
}

/** The later of two exclusive lower bounds (a cursor inside the range, or the range's own start). */
export function laterBound(a: Uint8Array | undefined, b: Uint8Array | undefined): Uint8Array | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return compareBytes(a, b) >= 0 ? a : b;
}
