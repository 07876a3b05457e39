import type { Clock } from '../Clock.ts';

/** `initialMs · 2^(attempt-1)`, capped at `maxMs`; attempt 1 waits `initialMs`. */
/** The shortest attempt a schedule allows (the Cassandra store's smallest request timeout). */
export const MIN_ATTEMPT_MS = 100;

export function backoffMs(attempt: number, initialMs: number, maxMs: number): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be an integer >= 1, got ${attempt}`);
  // 2^31 already exceeds any sane cap; clamping the exponent keeps the number finite.
  return Math.min(maxMs, initialMs * 2 ** Math.min(attempt - 1, 31));
}

export interface RetryPolicy {
  /** Total time the retries of one step may take, measured from the first failure. */
  readonly budgetMs: number;
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  /**
   * The shortest wait an attempt gets even when the budget is (nearly) spent
   * (at least MIN_ATTEMPT_MS): the landing margin, since a write abandoned
   * sooner may still be applied by the server until then. So the runtime stops
   * waiting for a write within `budgetMs + minAttemptMs` of the first attempt.
   */
  readonly minAttemptMs?: number;
}

/** The back-offs of one step: `wait()` sleeps the next back-off, or returns false when it would overrun the budget. */
export interface RetrySchedule {
  wait(): Promise<boolean>;
  /**
   * How long the next attempt may take: what is left of the budget, but at
   * least the policy's `minAttemptMs`. The store request timeout of that attempt.
   */
  attemptTimeoutMs(): number;
  /** Back-offs slept so far. */
  readonly attempts: number;
}

/**
 * Starts a retry schedule now. While sleeping it calls `heartbeat` at least
 * every `heartbeatEveryMs`, so a consumer retrying inside `eachBatch` keeps
 * its group membership (kafkajs heartbeats only when asked to).
 */
export function startRetrySchedule(
  policy: RetryPolicy,
  clock: Clock,
  heartbeat: () => Promise<void> = async () => {},
  heartbeatEveryMs = 1_000,
): RetrySchedule {
  const deadline = clock.nowMs() + policy.budgetMs;
  let attempts = 0;
  return {
    get attempts() {
      return attempts;
    },
    attemptTimeoutMs: () => Math.max(MIN_ATTEMPT_MS, policy.minAttemptMs ?? 0, deadline - clock.nowMs()),
    async wait() {
      const delay = backoffMs(attempts + 1, policy.initialBackoffMs, policy.maxBackoffMs);
      if (clock.nowMs() + delay > deadline) return false;
      attempts++;
      for (let left = delay; left > 0; left -= heartbeatEveryMs) {
        await clock.sleep(Math.min(left, heartbeatEveryMs));
        await heartbeat();
      }
      return true;
    },
  };
}
