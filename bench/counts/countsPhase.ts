import pino from 'pino';
import { degreeRecountLogic } from '../../processors/index.ts';
import { decodeDegreeCount, encodeDegreesKey } from '../../sinks/namespaces/index.ts';
import type { TwoLevelMapStore } from '../../sinks/store/index.ts';
import { createRecounter, type RecountMode } from '../../streams/runtime/index.ts';
import { quantile, round } from '../ingest/stats.ts';
import type { Celebrity } from '../wide/celebrityWorkload.ts';
import type { createCountsStream } from './countsStream.ts';

export interface PhaseResult {
  readonly mode: RecountMode;
  /** Rounds after one second of stream, until no mark was left (the delta mode's first one mirrors the celebrity once). */
  readonly warmUp: { readonly rounds: number; readonly seconds: number; readonly rowsRead: number };
  readonly rounds: number;
  readonly celebrityWrites: number;
  /** Writes whose count never showed before the phase ended. */
  readonly unresolved: number;
  readonly stalenessMs: { readonly p50: number; readonly p99: number; readonly max: number };
  readonly rowsReadPerRound: { readonly p50: number; readonly p99: number; readonly max: number; readonly mean: number };
  readonly roundSeconds: { readonly p50: number; readonly p99: number; readonly max: number };
  /** Per round, how far the count read after it was from every truth of the round's span (0 = it was one of them). */
  readonly countErrorPerRound: { readonly p50: number; readonly p99: number; readonly max: number };
  /** Count vs truth once the stream stopped and the marks were drained. */
  readonly finalCount: string;
  readonly finalTruth: number;
}

const stats = (xs: readonly number[]) => ({ p50: round(quantile(xs, 0.5), 1), p99: round(quantile(xs, 0.99), 1), max: round(Math.max(0, ...xs), 1) });

/**
 * One phase: a recounter in `mode` drains what is pending, then runs rounds
 * (`intervalMs` apart) while the stream writes for `seconds`. A celebrity
 * write is reflected by the first round that started after it landed and
 * whose count then equals the truth after some write that landed between the
 * round's start and its end; its staleness is that round's end minus the
 * write's landing. A full recount pages a partition that changes under it, so
 * under a steady stream its count can be one that was never true
 * (`countErrorPerRound`).
 */
export async function runCountsPhase(o: {
  store: TwoLevelMapStore;
  mode: RecountMode;
  celebrity: Celebrity;
  stream: ReturnType<typeof createCountsStream>;
  seconds: number;
  intervalMs: number;
  say: (line: string) => void;
}): Promise<PhaseResult> {
  const logger = pino({ level: 'warn' });
  const recounter = createRecounter({ store: o.store, logic: degreeRecountLogic, logger, mode: o.mode, intervalMs: o.intervalMs });
  const count = async () => {
    const cell = await o.store.namespace('degrees').get(o.celebrity.id, encodeDegreesKey(o.celebrity.edgeType, 'in'));
    return cell === undefined ? undefined : decodeDegreeCount(cell.value);
  };
  const drain = async () => {
    let rounds = 0;
    let rowsRead = 0;
    const start = performance.now();
    for (;;) {
      const r = await recounter.runOnce();
      rounds++;
      rowsRead += r.rowsRead;
      if (r.marks === 0) return { rounds, seconds: round((performance.now() - start) / 1000, 1), rowsRead };
    }
  };
  await o.stream.run(1); // a celebrity mark, so the warm-up (not the phase) pays a mode's first round on it
  const warmUp = await drain();
  o.say(`[${o.mode}] warm-up: ${warmUp.rounds} rounds, ${warmUp.seconds} s, ${warmUp.rowsRead} rows read`);

  const firstWrite = o.stream.writes.length;
  let next = firstWrite;
  const staleness: number[] = [];
  const rows: number[] = [];
  const durations: number[] = [];
  const errors: number[] = [];
  let streaming = true;
  const streamDone = o.stream.run(o.seconds).finally(() => (streaming = false));
  while (streaming) {
    const startMs = Date.now();
    const landedBefore = o.stream.writes.length;
    const r = await recounter.runOnce();
    const c = await count();
    const endMs = Date.now();
    rows.push(r.rowsRead);
    durations.push((endMs - startMs) / 1000);
    const landedByEnd = o.stream.writes.length;
    const span = o.stream.writes.slice(Math.max(firstWrite, landedBefore - 1), landedByEnd).map((w) => w.truth);
    const truths = new Set(span.map((t) => BigInt(t)));
    if (c !== undefined && span.length > 0) errors.push(Math.min(...span.map((t) => Math.abs(Number(c) - t))));
    if (c !== undefined && truths.has(c)) {
      for (; next < landedBefore; next++) staleness.push(endMs - (o.stream.writes[next]?.landedAtMs ?? endMs));
    }
    if (streaming) await new Promise((resolve) => setTimeout(resolve, o.intervalMs));
  }
  await streamDone;
  const unresolved = o.stream.writes.length - next;
  await drain();
  const finalCount = await count();
  const finalTruth = o.stream.writes.at(-1)?.truth ?? Number.NaN;
  const result: PhaseResult = {
    mode: o.mode,
    warmUp,
    rounds: rows.length,
    celebrityWrites: o.stream.writes.length - firstWrite,
    unresolved,
    stalenessMs: stats(staleness),
    rowsReadPerRound: { ...stats(rows), mean: round(rows.reduce((a, b) => a + b, 0) / Math.max(1, rows.length)) },
    roundSeconds: stats(durations),
    countErrorPerRound: stats(errors),
    finalCount: String(finalCount),
    finalTruth,
  };
  o.say(`[${o.mode}] ${result.rounds} rounds, ${result.celebrityWrites} celebrity writes (${unresolved} unresolved): staleness p50 ${result.stalenessMs.p50} ms, p99 ${result.stalenessMs.p99} ms; rows read per round p50 ${result.rowsReadPerRound.p50}, p99 ${result.rowsReadPerRound.p99}; round p50 ${result.roundSeconds.p50} s; count off the truth by p50 ${result.countErrorPerRound.p50}, max ${result.countErrorPerRound.max}; final count ${result.finalCount} vs truth ${finalTruth}`);
  return result;
}
