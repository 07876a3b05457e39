import type { Mark, RecountLogic, TakenMarks } from './createRecounter.ts';

/** A round's marks split into those it counts now and the intents it holds. */
export interface SortedMarks {
  readonly due: Mark[];
  readonly held: Mark[];
}

export interface IntentHold {
  /**
   * Splits the marks a round took (`now`: this clock, read after they were
   * read). An intent is due once `holdMs` passed since this instance first
   * read it; other marks are always due.
   */
  sort(taken: TakenMarks, owned: readonly string[], now: number): SortedMarks;
  /** Drops the first sights of marks the round deleted; returns how many of them were intents. */
  forget(deleted: readonly Mark[]): number;
}

/**
 * The recounter's hold on intents (docs/architecture.md §5 "Counts"). An
 * intent is written before the link cells of its attempt, which may land up
 * to `holdMs` after it did; a recount that read the links before they landed
 * and then deleted the intent would lose them. So an intent is counted (and
 * deleted) only by a round that began its reads `holdMs` after this instance
 * first read it, a read made after it landed: an interval of one clock, never
 * compared with the writer's stamp. A restart or a shard moving to another
 * instance starts the hold again (later, never sooner). In the normal case the
 * attempt's follow-ups delete the intent within moments and it is never due.
 */
export function createIntentHold(logic: Pick<RecountLogic, 'isIntent'>, holdMs: number): IntentHold {
  /** First sight (this clock's ms) of each intent taken and not yet deleted, by mark id. */
  let seen = new Map<string, { readonly partition: string; readonly at: number }>();
  return {
    sort(taken, owned, now) {
      const next = new Map<string, { readonly partition: string; readonly at: number }>();
      const due: Mark[] = [];
      const held: Mark[] = [];
      for (const m of taken.marks) {
        if (logic.isIntent?.(m.key) !== true) {
          due.push(m);
          continue;
        }
        const id = markId(m);
        const at = seen.get(id)?.at ?? now;
        next.set(id, { partition: m.partition, at });
        (now - at >= holdMs ? due : held).push(m);
      }
      // Keep the first sights in owned partitions the round did not read to the end: those intents were not looked for.
      const mine = new Set(owned);
      for (const [id, sight] of seen) if (!next.has(id) && mine.has(sight.partition) && !taken.completed.has(sight.partition)) next.set(id, sight);
      seen = next;
      return { due, held };
    },
    forget(deleted) {
      let intents = 0;
      for (const m of deleted) if (seen.delete(markId(m))) intents++;
      return intents;
    },
  };
}

/** A mark's cell as read: a rewrite at another write time is another sighting. */
function markId(m: Mark): string {
  return `${m.partition}\u0000${m.writeTime}\u0000${Buffer.from(m.key).toString('hex')}`;
}
