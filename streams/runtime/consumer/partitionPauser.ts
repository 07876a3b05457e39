import type { Clock } from '../Clock.ts';

/**
 * Pauses a partition from inside `eachBatch` and resumes it when a record
 * becomes due, instead of sleeping in the handler (which would starve
 * heartbeats and hold the partition's worker). kafkajs re-fetches a resumed
 * partition from its last resolved offset, so the waiting record is
 * delivered again once due.
 */
export interface PartitionPauser {
  pauseUntil(key: string, pause: () => () => void, dueAtMs: number): void;
  /** Partitions currently paused by this pauser. */
  paused(): readonly string[];
  /** Forgets every pending resume (on stop: the consumer is leaving anyway). */
  cancelAll(): void;
}

export function createPartitionPauser(clock: Clock): PartitionPauser {
  const pending = new Map<string, { cancelled: boolean }>();
  return {
    pauseUntil(key, pause, dueAtMs) {
      const previous = pending.get(key);
      if (previous) previous.cancelled = true;
      const token = { cancelled: false };
      pending.set(key, token);
      const resume = pause();
      void clock.sleep(Math.max(0, dueAtMs - clock.nowMs())).then(() => {
        if (token.cancelled) return;
        pending.delete(key);
        resume();
      });
    },
    paused: () => [...pending.keys()],
    cancelAll() {
      for (const token of pending.values()) token.cancelled = true;
      pending.clear();
    },
  };
}
