import type { Logger } from 'pino';
import { MAX_SLICE_LIMIT, type Cell, type TwoLevelMapStore } from '../../../sinks/store/index.ts';
import { mapBounded } from '../../../sinks/store/mapBounded.ts';
import { classifyFailure } from '../failures/classifyFailure.ts';
import { systemClock, type Clock } from '../Clock.ts';
import { countRowsRead } from '../store/countRowsRead.ts';
import { keySuccessor } from '../../../sinks/store/prefixEnd.ts';
import { describeError } from '../failures/PipelineError.ts';
import { createIntentHold } from './intentHold.ts';
import { sourceTally } from './recountByDelta.ts';
import { recountDeltaTargets } from './recountDeltaTargets.ts';
import { isUnsettled, settleCount, type Tally } from './settleCount.ts';
import { sweepLargeTargets } from './sweepLargeTargets.ts';

/** What one dirty mark asks for: count the cells of `source` and store the count under `result`. */
export interface RecountTarget {
  readonly source: { readonly namespace: string; readonly id: string };
  readonly result: { readonly namespace: string; readonly id: string; readonly key: Uint8Array };
}

/**
 * The pure logic of a recount projection (processors/counts implements it for
 * degrees). No I/O: the recounter pages, writes and deletes marks.
 */
export interface RecountLogic {
  /** The namespace of the dirty marks (e.g. `degree_dirty`)... */
  readonly markNamespace: string;
  /** ...and its partitions (e.g. `shard-0` … `shard-15`). */
  readonly markPartitions: readonly string[];
  /** The recount a mark asks for, or undefined for a malformed mark (deleted without counting). */
  target(markKey: Uint8Array): RecountTarget | undefined;
  /** Whether a cell of the source partition counts (e.g. an ACTIVE link). */
  counts(cell: Cell): boolean;
  /** The stored form of a count (e.g. u64 BE). */
  encodeCount(count: bigint): Uint8Array;
  /**
   * Whether a mark is an intent: written before the change it announces, so
   * it may be read before that change is visible (the recounter holds it,
   * see RecounterOptions.intentHoldMs). Absent: every mark follows its change.
   */
  isIntent?(markKey: Uint8Array): boolean;
  /** How to keep the count by delta (`mode: 'delta'`); without it, every recount is full. */
  readonly mirror?: MirrorLogic;
  /**
   * The key prefix that the marks of `markKey`'s target start with, and no
   * other mark, or undefined. With it, a round takes every mark of a target
   * it found many marks of (sweepLargeTargets).
   */
  markPrefix?(markKey: Uint8Array): Uint8Array | undefined;
}

/**
 * The per-key mirror of a target's source that a delta recount keeps
 * (recountByDelta), in partition `target.result.id` of `namespace`: a flag per
 * source key, flags in buckets, bucket counts in groups, one count per
 * bucket and per group, and a marker saying the mirror once copied the whole source.
 */
export interface MirrorLogic {
  readonly namespace: string;
  /** The source key a mark names (e.g. the peer's link key), or undefined when it names none (older marks). */
  changedKey(markKey: Uint8Array): Uint8Array | undefined;
  flagKey(target: RecountTarget, sourceKey: Uint8Array): Uint8Array;
  /** Where a source key's bucket count lives and the prefix of its flags; the same for its group and the group's bucket counts. */
  bucketOf(target: RecountTarget, sourceKey: Uint8Array): MirrorBucket;
  /** The prefix of the target's group counts (and of nothing else). */
  groupsPrefix(target: RecountTarget): Uint8Array;
  markerKey(target: RecountTarget): Uint8Array;
  decodeCount(bytes: Uint8Array): bigint;
}

export interface MirrorBucket {
  readonly countKey: Uint8Array;
  readonly flagsPrefix: Uint8Array;
  readonly group: { readonly countKey: Uint8Array; readonly bucketsPrefix: Uint8Array };
}

/** `delta`: cost follows the marked keys (needs `logic.mirror`); `full`: every recount reads the whole source. */
export type RecountMode = 'delta' | 'full';

export interface RecountRound {
  /** This instance's wall clock (µs) at the start of the round: a count is written at t0, or just after the count it replaces. */
  readonly t0: bigint;
  readonly marks: number;
  /** Targets recounted (several marks of one target are counted once). */
  readonly recounted: number;
  /** Marks whose recount failed; they were kept for the next round. */
  readonly failed: number;
  /** Of `failed`, the marks of targets whose count was still changing (written to while counted), not of a failing store. */
  readonly unsettled: number;
  /** Intents taken but held (not counted, kept): first seen less than `intentHoldMs` ago. */
  readonly held: number;
  /** Cells read from the round's take to its end (marks, counts, sources, mirrors; with the next round's take beside it, that take's too). */
  readonly rowsRead: number;
  /** Wall time of the round's phases: taking the marks, counting their targets, deleting the marks counted (a take made while the round before was counted overlaps it). */
  readonly phasesMs: { readonly take: number; readonly count: number; readonly deleteMarks: number };
}

/** Which mark partitions this instance recounts (see createShardOwnership); the others belong to other instances. */
export interface MarkPartitionOwner {
  owns(partition: string): boolean;
}

export interface RecounterOptions {
  readonly store: TwoLevelMapStore;
  readonly logic: RecountLogic;
  readonly logger: Logger;
  readonly clock?: Clock;
  /** Default: this instance recounts every mark partition. */
  readonly owner?: MarkPartitionOwner;
  /** Pause between rounds (from the end of one to the start of the next), unless a round took `marksPerRound` marks. Default 5 s. */
  readonly intervalMs?: number;
  /** Cells per slice page, for marks and for counted partitions. Default 1000. */
  readonly pageSize?: number;
  /** Most marks one round takes (the rest wait for the next). Default 10 000 (config `runtime.recountMarksPerRound`). */
  readonly marksPerRound?: number;
  /**
   * How long after this instance first read an intent it may count it and
   * delete it: at least the longest a write sent after the intent landed can
   * take to land or be dropped (the pipeline passes 2 × (writeRetryBudgetMs +
   * writeLandingMarginMs)). Measured on this instance's clock only, from a
   * read that came after the intent landed. Default 24 000 (the defaults' bound).
   */
  readonly intentHoldMs?: number;
  /** Delta mode: a target without the mirror's marker and with at most this many source cells is counted from its source (in batches), never mirrored. Default 128. */
  readonly directCountMaxCells?: number;
  /** Targets recounted concurrently (delta mode: mirrored targets; the others go in batches of 100). Default 16. */
  readonly concurrency?: number;
  /** Default `full`; `delta` needs `logic.mirror`. */
  readonly mode?: RecountMode;
  /** A target with at least this many marks in a round gets all its marks taken in that round (needs `logic.markPrefix`). Default 1000. */
  readonly sweepMinMarks?: number;
  /** Most marks those sweeps add to one round. Default 100 × `marksPerRound`, at most 1 000 000. */
  readonly sweepMaxMarks?: number;
}

/** Totals since start (metrics); `lastRoundMarks` at `marksPerRound` means a backlog. */
export interface RecounterStats {
  readonly rounds: number;
  readonly failedRounds: number;
  readonly recounted: number;
  /** Marks kept because their recount failed (`unsettled` ones included). */
  readonly failed: number;
  /** Of `failed`, marks of counts still changing when counted (ingest into the target), not of store failures. */
  readonly unsettled: number;
  readonly lastRoundMarks: number;
  /** Intents counted after their hold: attempts that never wrote their follow-up marks (repair, DLQ, a crash). */
  readonly strandedIntents: number;
}

export interface Recounter {
  /** One round: take marks, recount, write counts, delete the marks that were counted. */
  runOnce(): Promise<RecountRound>;
  stats(): RecounterStats;
  /** Runs rounds every `intervalMs` until `stop()`; back to back while a backlog lasts. */
  start(): void;
  /** Finishes the round in flight and stops. */
  stop(): Promise<void>;
}

/**
 * The recounter (docs/architecture.md §5 "Counts"): counts are recounted,
 * never incremented, so replays and duplicates cannot skew them. No decision
 * compares this instance's clock with a stamp written elsewhere:
 * - a mark is deleted at the write time it was read with, after a count that
 *   started reading later: a mark written after the read is another cell or a
 *   newer write time, and survives for the next round;
 * - a count is written at max(t0, the replaced count's write time + 1), so a
 *   recount always supersedes the one before it, whichever instance (and
 *   clock) wrote that, and is then checked against a second count (settleCount).
 * `full` mode recounts a target's whole source; `delta` mode only the marked
 * keys' share of it (recountByDelta), so a round costs what changed; a
 * target with many marks in a round gets all its marks taken at once
 * (sweepLargeTargets), so a celebrity settles in one recount. Each round starts at the next owned mark partition, so a backlog in one
 * cannot starve the others. A failed recount keeps its marks. Exact once the
 * stream is quiet.
 */
export function createRecounter(opts: RecounterOptions): Recounter {
  const { logic } = opts;
  const mode = opts.mode ?? 'full';
  if (mode === 'delta' && logic.mirror === undefined) throw new TypeError(`recounter mode 'delta' needs a mirror in the logic of ${logic.markNamespace}`);
  const reads = countRowsRead(opts.store);
  const store = reads.store;
  const clock = opts.clock ?? systemClock;
  const logger = opts.logger.child({ component: 'recounter', namespace: logic.markNamespace });
  const pageSize = opts.pageSize ?? 1_000;
  const marksPerRound = opts.marksPerRound ?? 10_000;
  const concurrency = opts.concurrency ?? 16;
  const intervalMs = opts.intervalMs ?? 5_000;
  const intents = createIntentHold(logic, opts.intentHoldMs ?? 24_000);
  const directCountMaxCells = opts.directCountMaxCells ?? 128;
  const sweep = { pageSize, minMarks: opts.sweepMinMarks ?? 1_000, maxMarks: opts.sweepMaxMarks ?? Math.min(100 * marksPerRound, 1_000_000) };
  if (!Number.isInteger(directCountMaxCells) || directCountMaxCells < 0 || directCountMaxCells >= Math.min(pageSize, MAX_SLICE_LIMIT)) {
    throw new RangeError(`recounter directCountMaxCells must be an integer in [0, ${Math.min(pageSize, MAX_SLICE_LIMIT) - 1}] (below pageSize), got ${directCountMaxCells}`);
  }
  let rounds = 0;
  const cursors: TakeCursors = new Map();
  let running = false;
  let loop: Promise<void> | undefined;
  const stats = { rounds: 0, failedRounds: 0, recounted: 0, failed: 0, unsettled: 0, lastRoundMarks: 0, strandedIntents: 0 };
  const recountAll = (targets: readonly TargetMarks[], t0: bigint): Promise<PromiseSettledResult<unknown>[]> => {
    const { mirror } = logic;
    if (mode !== 'delta' || mirror === undefined) return mapBounded(targets, concurrency, (t) => settleCount(store, fullTally(logic, t.target), pageSize, t0));
    const byDelta = targets.map((t) => ({ target: t.target, markKeys: t.marks.map((m) => m.key) }));
    return recountDeltaTargets(store, { ...logic, mirror }, byDelta, { pageSize, directCountMaxCells, concurrency }, t0);
  };

  /** A round's first phase: its t0, then its marks (each round starts at the next owned partition), none from `busy`. */
  const takeRound = async (busy: ReadonlySet<string> = new Set()): Promise<TakenRound> => {
    const t0 = clock.nowMicros();
    const readBefore = reads.rows();
    const owned = logic.markPartitions.filter((p) => opts.owner?.owns(p) ?? true);
    const startedMs = clock.nowMs();
    const from = rotated(owned, rounds++).filter((p) => !busy.has(p));
    const taken = await sweepLargeTargets(store, logic, await takeMarks(store, logic, from, pageSize, marksPerRound, cursors), owned, sweep);
    return { t0, readBefore, owned, startedMs, takenMs: clock.nowMs(), taken };
  };

  /** The rest of a round: count the targets of the marks taken, then delete the marks counted. */
  const finishRound = async ({ t0, readBefore, owned, startedMs, takenMs, taken }: TakenRound): Promise<RecountRound> => {
    const countingMs = clock.nowMs();
    const { due, held } = intents.sort(taken, owned, countingMs);
    const targets = byTarget(due);
    const settled = await recountAll(targets, t0);
    const countedMs = clock.nowMs();
    const done: Mark[] = due.filter((m) => m.target === undefined);
    let unsettledMarks = 0;
    settled.forEach((r, i) => {
      const { marks: covered } = targets[i] as TargetMarks;
      // A loop, not push(...covered): a swept target's marks can outnumber the arguments a call takes.
      if (r.status === 'fulfilled') return void covered.forEach((m) => done.push(m));
      if (classifyFailure('store', r.reason) === 'fatal') throw r.reason;
      const fields = { mark: describeMark(covered[0] as Mark), marks: covered.length, err: r.reason };
      // A target written to while it was counted did not settle: expected under ingest, counted again next round.
      if (isUnsettled(r.reason)) {
        unsettledMarks += covered.length;
        logger.info(fields, 'count still changing; marks kept for the next round');
      } else logger.warn(fields, 'recount failed; marks kept for the next round');
    });
    await deleteMarks(store, logic, done);
    const phasesMs = { take: takenMs - startedMs, count: countedMs - countingMs, deleteMarks: clock.nowMs() - countedMs };
    stats.strandedIntents += intents.forget(done);
    const rowsRead = reads.rows() - readBefore;
    const marks = taken.marks.length;
    const failed = marks - held.length - done.length;
    const round = { t0, marks, recounted: settled.filter((r) => r.status === 'fulfilled').length, failed, unsettled: unsettledMarks, held: held.length, rowsRead, phasesMs };
    // The empty round after a backlog is logged too: it says the backlog is gone.
    if (round.marks > 0 || stats.lastRoundMarks > 0) logger.info(round, 'recount round');
    stats.rounds++;
    stats.recounted += round.recounted;
    stats.failed += round.failed;
    stats.unsettled += round.unsettled;
    stats.lastRoundMarks = round.marks;
    return round;
  };

  const runOnce = async (): Promise<RecountRound> => finishRound(await takeRound());

  return {
    runOnce,
    stats: () => ({ ...stats }),
    start() {
      if (running) return;
      running = true;
      loop = (async () => {
        // A full take means a backlog: the next round's marks are taken while this round is
        // counted, from the partitions it did not read, so the processor reading marks and
        // Cassandra answering the counts overlap (see TakenRound). A prefetch that is not full
        // (the backlog is in the partitions it skipped) is dropped, and its marks read again.
        let prefetched: Promise<TakenRound> | undefined;
        while (running) {
          let backlog = false;
          try {
            const ahead = await prefetched;
            prefetched = undefined;
            const taken = ahead !== undefined && ahead.taken.marks.length >= marksPerRound ? ahead : await takeRound();
            const finishing = finishRound(taken);
            if (taken.taken.marks.length >= marksPerRound) {
              prefetched = takeRound(new Set(taken.taken.marks.map((m) => m.partition)));
              prefetched.catch(() => undefined); // awaited (and its failure reported) at the next turn
            }
            const round = await finishing;
            backlog = leavesBacklog(round, marksPerRound);
          } catch (e) {
            stats.failedRounds++;
            logger.error({ err: e, error: describeError(e) }, 'recount round failed');
          }
          if (running && !backlog) await clock.sleep(intervalMs);
        }
        await prefetched?.catch(() => undefined); // its marks stay for the next start: nothing was counted
      })();
    },
    async stop() {
      running = false;
      await loop;
    },
  };
}

/**
 * A round whose marks are taken and not yet counted. Under a backlog the loop takes the next
 * round's marks while the one before is counted (a prefetch): takes are still one after
 * another, and a prefetch reads none of the partitions the round in flight took marks from.
 * It can still read a mark of that round through a sweep (a large target's intents in the
 * other shards); that target is then counted twice and the mark deleted twice at the write
 * time it was read with, as when two instances count one target: more work, the same counts.
 */
interface TakenRound {
  readonly t0: bigint;
  readonly readBefore: number;
  readonly owned: readonly string[];
  readonly startedMs: number;
  readonly takenMs: number;
  readonly taken: TakenMarks;
}

export interface Mark {
  readonly partition: string;
  readonly key: Uint8Array;
  /** The write time the mark was read with: deleting at it removes this write of the mark and nothing newer. */
  readonly writeTime: bigint;
  readonly target: RecountTarget | undefined;
}

interface TargetMarks {
  readonly target: RecountTarget;
  readonly marks: Mark[];
}

/**
 * Whether the next round starts at once: this one was full and deleted marks. Marks of a
 * count still changing (a target written to while it was counted, normal under ingest) do not
 * stop it: waiting an interval would only let the backlog grow (a bench:mixed load of 180 000
 * links sat idle 10.5 s after a round with one such target). A store failure, or a round that
 * only held intents (the next would take the same ones), waits an interval.
 */
export function leavesBacklog(round: RecountRound, marksPerRound: number): boolean {
  const done = round.marks - round.held - round.failed;
  return round.marks >= marksPerRound && round.failed === round.unsettled && done > 0;
}

/** `partitions` starting at the `round`-th (mod length), wrapping around. */
function rotated<T>(partitions: readonly T[], round: number): T[] {
  const at = partitions.length === 0 ? 0 : round % partitions.length;
  return [...partitions.slice(at), ...partitions.slice(0, at)];
}

/**
 * Where the next take of each mark partition starts: just after the last mark
 * a round took there when the round stopped inside it. A take reads from
 * there to the end and then from the front up to it, so it walks the
 * partition round and round. Marks are deleted one by one and their row
 * tombstones stay until compaction purges them; a take that always started at
 * the front skipped every tombstone of the marks deleted since, which grows
 * with the backlog (a 4 M-link load timed shard reads out). A partition read
 * to the end in one take starts at the front again.
 */
type TakeCursors = Map<string, Uint8Array>;

/** The marks a round took, and the partitions it read to the end. */
export interface TakenMarks {
  readonly marks: Mark[];
  readonly completed: ReadonlySet<string>;
}

async function takeMarks(store: TwoLevelMapStore, logic: RecountLogic, partitions: readonly string[], pageSize: number, max: number, cursors: TakeCursors): Promise<TakenMarks> {
  const ns = store.namespace(logic.markNamespace);
  const marks: Mark[] = [];
  const completed = new Set<string>();
  for (const partition of partitions) {
    const after = cursors.get(partition);
    // After the last mark taken here, then from the front up to it (see TakeCursors).
    const ranges = after === undefined ? [{}] : [{ start: keySuccessor(after) }, { end: keySuccessor(after) }];
    let last: Uint8Array | undefined;
    let readAll = true;
    for (const range of ranges) {
      let pageState: string | undefined;
      do {
        const page = await ns.slice(partition, { ...range, limit: Math.min(pageSize, max - marks.length), ...(pageState === undefined ? {} : { pageState }) });
        for (const cell of page.cells) marks.push({ partition, key: cell.key, writeTime: cell.writeTime, target: logic.target(cell.key) });
        last = page.cells.at(-1)?.key ?? last;
        pageState = page.pageState;
      } while (pageState !== undefined && marks.length < max);
      if (pageState !== undefined || (marks.length >= max && range !== ranges.at(-1))) {
        readAll = false;
        break;
      }
    }
    if (readAll) {
      completed.add(partition);
      cursors.delete(partition);
    } else if (last !== undefined) cursors.set(partition, last);
    if (marks.length >= max) break;
  }
  return { marks, completed };
}

/** The marks of each target (one recount covers them all), in first-seen order. */
function byTarget(marks: readonly Mark[]): TargetMarks[] {
  const groups = new Map<string, TargetMarks>();
  for (const m of marks) {
    if (m.target === undefined) continue;
    const { source, result } = m.target;
    const id = `${source.namespace}\u0000${source.id}\u0000${result.namespace}\u0000${result.id}\u0000${Buffer.from(result.key).toString('hex')}`;
    const group = groups.get(id);
    if (group === undefined) groups.set(id, { target: m.target, marks: [m] });
    else group.marks.push(m);
  }
  return [...groups.values()];
}

/** The full recount: every cell of the source partition; it also voids the delta mirror's marker (the mirror stops following). */
function fullTally(logic: RecountLogic, target: RecountTarget): Tally {
  const { mirror } = logic;
  return {
    ...sourceTally(logic, target),
    ...(mirror === undefined ? {} : { alongside: { namespace: mirror.namespace, id: target.result.id, deletions: [mirror.markerKey(target)] } }),
  };
}

/** Marks deleted per store call: a background call holds one slot of the budget, so none is long. */
const DELETE_MARKS_PER_CALL = 1_000;

/** Deletes each mark at the write time it was read with (one mutation per mark: write times differ). */
async function deleteMarks(store: TwoLevelMapStore, logic: RecountLogic, marks: readonly Mark[]): Promise<void> {
  const pieces: Mark[][] = [];
  for (let i = 0; i < marks.length; i += DELETE_MARKS_PER_CALL) pieces.push(marks.slice(i, i + DELETE_MARKS_PER_CALL));
  await Promise.all(pieces.map((piece) => store.mutateMany(piece.map((m) => ({ namespace: logic.markNamespace, id: m.partition, writeTime: m.writeTime, deletions: [m.key], additions: [] })))));
}

function describeMark(m: Mark): string {
  return `${m.partition}/${Buffer.from(m.key).toString('hex')}`;
}
