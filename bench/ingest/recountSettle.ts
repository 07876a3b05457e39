/** The recounter's marks per round (createRecounter's default; not in the config file). */
export const RECOUNT_MARKS_PER_ROUND = 10_000;

/** A `recount round` the processor child logged (only rounds that took marks are logged). */
export interface RecountRoundSeen {
  readonly atMs: number;
  readonly marks: number;
}

/**
 * When the recounter had taken a burst's marks, judged from the rounds logged after `sinceMs`
 * (undefined: not yet). A round that took fewer than a full round's marks took the last of them.
 * A full round followed by silence did too: the next round found nothing and logged nothing
 * (400 000 marks are exactly 40 full rounds), so once no round has been logged for
 * `quietMs` the last one logged (or `sinceMs`, if none was) is when the backlog ended.
 */
export function recountSettledAt(rounds: readonly RecountRoundSeen[], sinceMs: number, nowMs: number, quietMs: number): number | undefined {
  const after = rounds.filter((x) => x.atMs >= sinceMs);
  const partial = after.find((x) => x.marks < RECOUNT_MARKS_PER_ROUND);
  if (partial) return partial.atMs;
  const last = after.at(-1)?.atMs ?? sinceMs;
  return nowMs - last > quietMs ? last : undefined;
}
