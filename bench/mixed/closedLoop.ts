import { latencySummary, round, type LatencySummary } from '../ingest/stats.ts';
import { OP_KINDS, type MixOp, type OpKind } from './opMix.ts';

export interface OpFigures extends LatencySummary {
  readonly errors: number;
  readonly firstError?: string;
}

export interface ClosedLoopResult {
  /** Measured window (after the warm-up) until the last op started in it finished, s. */
  readonly seconds: number;
  /** Ops completed without error in the measured window. */
  readonly ops: number;
  readonly opsPerSecond: number;
  readonly errors: number;
  readonly byKind: Readonly<Record<OpKind, OpFigures>>;
}

/**
 * LinkBench's requesters: `clients` loops, each running its own op stream
 * one op at a time (the next starts when the previous answered), for
 * `warmupSeconds` unrecorded and then `seconds` recorded. An op's latency is
 * its call's wall time; an op that throws counts as an error of its kind.
 * `onMeasureStart` runs when the recorded window opens (CPU watches start there).
 */
export async function runClosedLoop(o: {
  clients: number;
  warmupSeconds: number;
  seconds: number;
  nextOp: (client: number) => () => MixOp;
  execute: (op: MixOp) => Promise<void>;
  onMeasureStart?: () => void;
  onProgress?: (done: number, elapsedSeconds: number) => void;
}): Promise<ClosedLoopResult> {
  const latencies = Object.fromEntries(OP_KINDS.map((k) => [k, [] as number[]])) as Record<OpKind, number[]>;
  const errors = Object.fromEntries(OP_KINDS.map((k) => [k, { count: 0, first: undefined as string | undefined }])) as Record<OpKind, { count: number; first: string | undefined }>;
  const t0 = performance.now();
  const measureFrom = t0 + o.warmupSeconds * 1000;
  const stopAt = measureFrom + o.seconds * 1000;
  let measuring = false;
  let done = 0;
  const progress = setInterval(() => o.onProgress?.(done, Math.max(0, (performance.now() - measureFrom) / 1000)), 1_000);
  const requester = async (client: number) => {
    const next = o.nextOp(client);
    for (;;) {
      const start = performance.now();
      if (start >= stopAt) return;
      if (!measuring && start >= measureFrom) {
        measuring = true;
        o.onMeasureStart?.();
      }
      const recorded = start >= measureFrom;
      const op = next();
      try {
        await o.execute(op);
        if (recorded) {
          latencies[op.kind].push(performance.now() - start);
          done++;
        }
      } catch (e) {
        if (recorded) {
          errors[op.kind].count++;
          errors[op.kind].first ??= e instanceof Error ? e.message : String(e);
        }
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: o.clients }, (_, c) => requester(c)));
  } finally {
    clearInterval(progress);
  }
  const seconds = (performance.now() - measureFrom) / 1000;
  const byKind = Object.fromEntries(
    OP_KINDS.map((k) => [k, { ...latencySummary(latencies[k]), errors: errors[k].count, ...(errors[k].first === undefined ? {} : { firstError: errors[k].first }) }]),
  ) as Record<OpKind, OpFigures>;
  return { seconds: round(seconds, 2), ops: done, opsPerSecond: round(done / seconds, 1), errors: OP_KINDS.reduce((s, k) => s + errors[k].count, 0), byKind };
}
