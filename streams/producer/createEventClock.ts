import type { Clock } from '../runtime/Clock.ts';

/**
 * Event times for one producer instance: the wall clock in microseconds,
 * bumped by 1 µs whenever it would not be strictly greater than the last one
 * handed out, so two calls in the same microsecond (or millisecond, with a
 * millisecond clock) never tie and never go backwards when the wall clock
 * does. LWW between two mutations of one producer then follows call order.
 */
export function createEventClock(clock: Pick<Clock, 'nowMicros'>): () => bigint {
  let last = -1n;
  return () => {
    const now = clock.nowMicros();
    last = now > last ? now : last + 1n;
    return last;
  };
}
