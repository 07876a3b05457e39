import type { Logger } from 'pino';
import type { Cell, TwoLevelMapStore } from '../../sinks/store/index.ts';
import { mapBounded } from '../../sinks/store/mapBounded.ts';
import { classifyFailure } from './classifyFailure.ts';
import { systemClock, type Clock } from './Clock.ts';
import { describeError } from './PipelineError.ts';

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
}

export interface RecountRound {
  /** Wall clock (µs) at the start of the round: counts are written at t0, marks deleted at t0-1. */
  readonly t0: bigint;
  readonly marks: number;
  readonly recounted: number;
  /** Targets whose recount failed; their marks were kept for the next round. */
  readonly failed: number;
}

export interface RecounterOptions {
  readonly store: TwoLevelMapStore;
  readonly logic: RecountLogic;
  readonly logger: Logger;
  readonly clock?: Clock;
  /** Pause between rounds (from the end of one to the start of the next). Default 5 s. */
  readonly intervalMs?: number;
  /** Cells per slice page, for marks and for counted partitions. Default 1000. */
  readonly pageSize?: number;
  /** Most marks one round takes (the rest wait for the next). Default 10 000. */
  readonly marksPerRound?: number;
  /** Targets recounted concurrently. Default 16. */
  readonly concurrency?: number;
}

/** Totals since start (metrics); `lastRoundMarks` at `marksPerRound` means a backlog. */
export interface RecounterStats {
  readonly rounds: number;
  readonly failedRounds: number;
  readonly recounted: number;
  readonly failed: number;
  readonly lastRoundMarks: number;
}

export interface Recounter {
  /** One round: take marks, recount, write counts, delete the marks at t0-1. */
  runOnce(): Promise<RecountRound>;
  stats(): RecounterStats;
  /** Runs rounds every `intervalMs` until `stop()`. */
  start(): void;
  /** Finishes the round in flight and stops. */
  stop(): Promise<void>;
}

/**
 * The recounter (docs/architecture.md §5 "Counts"): counts are recounted,
 * never incremented, so replays and duplicates cannot skew them. A round
 * notes t0 on the wall clock, recounts every marked target by paging its
 * partition, writes the count at write time t0 (a later round always wins)
 * and deletes the marks it handled at t0-1: a mark stamped at or after t0,
 * i.e. for a change the count may have missed, survives for the next round.
 * A failed recount keeps its mark. Exact once the stream is quiet.
 */
export function createRecounter(opts: RecounterOptions): Recounter {
  const { store, logic } = opts;
  const clock = opts.clock ?? systemClock;
  const logger = opts.logger.child({ component: 'recounter', namespace: logic.markNamespace });
  const pageSize = opts.pageSize ?? 1_000;
  const marksPerRound = opts.marksPerRound ?? 10_000;
  const concurrency = opts.concurrency ?? 16;
  const intervalMs = opts.intervalMs ?? 5_000;
  let running = false;
  let loop: Promise<void> | undefined;
  const stats = { rounds: 0, failedRounds: 0, recounted: 0, failed: 0, lastRoundMarks: 0 };

  const runOnce = async (): Promise<RecountRound> => {
    const t0 = clock.nowMicros();
    const marks = await takeMarks(store, logic, pageSize, marksPerRound);
    const settled = await mapBounded(marks, concurrency, async (mark) => {
      if (mark.target !== undefined) await recount(store, logic, mark.target, pageSize, t0);
    });
    const done = marks.filter((_, i) => settled[i]?.status === 'fulfilled');
    settled.forEach((r, i) => {
      if (r.status === 'fulfilled') return;
      if (classifyFailure('store', r.reason) === 'fatal') throw r.reason;
      logger.warn({ mark: describeMark(marks[i] as Mark), err: r.reason }, 'recount failed; mark kept for the next round');
    });
    await deleteMarks(store, logic, done, t0 - 1n);
    const round = { t0, marks: marks.length, recounted: done.filter((m) => m.target !== undefined).length, failed: marks.length - done.length };
    if (round.marks > 0) logger.info(round, 'recount round');
    stats.rounds++;
    stats.recounted += round.recounted;
    stats.failed += round.failed;
    stats.lastRoundMarks = round.marks;
    return round;
  };

  return {
    runOnce,
    stats: () => ({ ...stats }),
    start() {
      if (running) return;
      running = true;
      loop = (async () => {
        while (running) {
          try {
            await runOnce();
          } catch (e) {
            stats.failedRounds++;
            logger.error({ err: e, error: describeError(e) }, 'recount round failed');
          }
          if (running) await clock.sleep(intervalMs);
        }
      })();
    },
    async stop() {
      running = false;
      await loop;
    },
  };
}

interface Mark {
  readonly partition: string;
  readonly key: Uint8Array;
  readonly target: RecountTarget | undefined;
}

async function takeMarks(store: TwoLevelMapStore, logic: RecountLogic, pageSize: number, max: number): Promise<Mark[]> {
  const ns = store.namespace(logic.markNamespace);
  const marks: Mark[] = [];
  for (const partition of logic.markPartitions) {
    let pageState: string | undefined;
    do {
      const page = await ns.slice(partition, { limit: Math.min(pageSize, max - marks.length), ...(pageState === undefined ? {} : { pageState }) });
      for (const cell of page.cells) marks.push({ partition, key: cell.key, target: logic.target(cell.key) });
      pageState = page.pageState;
    } while (pageState !== undefined && marks.length < max);
    if (marks.length >= max) break;
  }
  return marks;
}

async function recount(store: TwoLevelMapStore, logic: RecountLogic, target: RecountTarget, pageSize: number, t0: bigint): Promise<void> {
  const ns = store.namespace(target.source.namespace);
  let count = 0n;
  let pageState: string | undefined;
  do {
    const page = await ns.slice(target.source.id, { limit: pageSize, ...(pageState === undefined ? {} : { pageState }) });
    for (const cell of page.cells) if (logic.counts(cell)) count++;
    pageState = page.pageState;
  } while (pageState !== undefined);
  const { namespace, id, key } = target.result;
  await store.mutateMany([{ namespace, id, writeTime: t0, deletions: [], additions: [{ key, value: logic.encodeCount(count) }] }]);
}

async function deleteMarks(store: TwoLevelMapStore, logic: RecountLogic, marks: readonly Mark[], writeTime: bigint): Promise<void> {
  const byPartition = new Map<string, Uint8Array[]>();
  for (const m of marks) {
    let keys = byPartition.get(m.partition);
    if (keys === undefined) byPartition.set(m.partition, (keys = []));
    keys.push(m.key);
  }
  if (byPartition.size === 0) return;
  await store.mutateMany([...byPartition].map(([id, deletions]) => ({ namespace: logic.markNamespace, id, writeTime, deletions, additions: [] })));
}

function describeMark(m: Mark): string {
  return `${m.partition}/${Buffer.from(m.key).toString('hex')}`;
}
