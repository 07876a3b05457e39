import type { TwoLevelMapStore } from '../../../sinks/store/index.ts';
import type { Mark, RecountLogic, TakenMarks } from './createRecounter.ts';

export interface SweepOptions {
  readonly pageSize: number;
  /** A target with at least this many marks in the round is swept. */
  readonly minMarks: number;
  /** Most marks the sweeps of one round add (bounds the round's memory). */
  readonly maxMarks: number;
}

/**
 * Adds to a round every mark of its large targets (docs/architecture.md §5
 * "Counts"): a target with `minMarks` marks in the round touches most of its
 * mirror's buckets, so its recount reads about its whole degree whatever the
 * number of marks; taking its other marks too (the rest of its run in this
 * shard, its intents in the other owned shards) lets one recount cover them,
 * instead of one such recount per `marksPerRound` marks, which made settling a
 * celebrity quadratic in its degree. Needs `logic.markPrefix`; a mark read
 * twice is kept once, as read last.
 */
export async function sweepLargeTargets(store: TwoLevelMapStore, logic: RecountLogic, taken: TakenMarks, owned: readonly string[], o: SweepOptions): Promise<TakenMarks> {
  const prefixOf = logic.markPrefix;
  if (prefixOf === undefined || taken.marks.length < o.minMarks) return taken;
  const large = largeTargets(taken.marks, prefixOf, o.minMarks);
  if (large.length === 0) return taken;
  const ns = store.namespace(logic.markNamespace);
  const byId = new Map(taken.marks.map((m) => [markId(m), m]));
  let added = 0;
  for (const { prefix, mark } of large) {
    for (const partition of owned) {
      let pageState: string | undefined;
      do {
        const page = await ns.scanPrefix(partition, prefix, { limit: o.pageSize, ...(pageState === undefined ? {} : { pageState }) });
        for (const cell of page.cells) {
          const m: Mark = { partition, key: cell.key, writeTime: cell.writeTime, target: mark.target };
          if (!byId.has(markId(m))) added++;
          byId.set(markId(m), m);
        }
        pageState = page.pageState;
      } while (pageState !== undefined && added < o.maxMarks);
      if (added >= o.maxMarks) break;
    }
    if (added >= o.maxMarks) break;
  }
  return { marks: [...byId.values()], completed: taken.completed };
}

/** One mark of each target with at least `min` marks, and the key prefix of that target's marks. */
function largeTargets(marks: readonly Mark[], prefixOf: (key: Uint8Array) => Uint8Array | undefined, min: number): { prefix: Uint8Array; mark: Mark }[] {
  const runs = new Map<string, { prefix: Uint8Array; mark: Mark; n: number }>();
  for (const m of marks) {
    if (m.target === undefined) continue;
    const prefix = prefixOf(m.key);
    if (prefix === undefined) continue;
    const id = Buffer.from(prefix).toString('hex');
    const run = runs.get(id);
    if (run === undefined) runs.set(id, { prefix, mark: m, n: 1 });
    else run.n++;
  }
  return [...runs.values()].filter((r) => r.n >= min);
}

function markId(m: Mark): string {
  return `${m.partition}\u0000${Buffer.from(m.key).toString('hex')}`;
}
