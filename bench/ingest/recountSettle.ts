/** The recounter's marks per round (createRecounter's default; not in the config file). */
export const RECOUNT_MARKS_PER_ROUND = 10_000;

/** A `recount round` the processor child logged: every round that took marks, and the empty one after them. */
export interface RecountRoundSeen {
  readonly atMs: number;
  readonly marks: number;
}

/**
 * When the recounter had taken a burst's marks, judged from the rounds it logged (undefined: not
 * yet): the first round after `sinceMs` that took less than a full round (the empty round after a
 * backlog is logged, so a backlog of exactly 40 full rounds ends too). With no round logged since,
 * it had caught up already if the last round before took less than a full round and nothing has
 * been logged for `quietMs`; no round at all is not taken for caught up (a first round of a burst
 * can take a minute on a busy machine).
 */
export function recountSettledAt(rounds: readonly RecountRoundSeen[], sinceMs: number, nowMs: number, quietMs: number): number | undefined {
  const partial = rounds.find((x) => x.atMs >= sinceMs && x.marks < RECOUNT_MARKS_PER_ROUND);
  if (partial) return partial.atMs;
  const last = rounds.at(-1);
  return last !== undefined && last.atMs < sinceMs && last.marks < RECOUNT_MARKS_PER_ROUND && nowMs - sinceMs > quietMs ? sinceMs : undefined;
}
