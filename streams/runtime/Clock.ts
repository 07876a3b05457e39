/**
 * Time as an input (Kafka Streams' `currentSystemTimeMs`): the runtime never
 * calls Date.now() or setTimeout directly, so tests drive time by hand.
 */
export interface Clock {
  /** Wall clock, milliseconds since the epoch. */
  nowMs(): number;
  /** Wall clock, microseconds since the epoch (the write-time clock of follow-ups and recounts). */
  nowMicros(): bigint;
  /** Resolves after `ms` of this clock's time. */
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = Object.freeze({
  nowMs: () => Date.now(),
  nowMicros: () => BigInt(Date.now()) * 1000n,
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms))),
});
