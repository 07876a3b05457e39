import { setTimeout as sleep } from 'node:timers/promises';
import { createRandom } from '../../cli/workload/createRandom.ts';
import { mix32 } from '../../cli/workload/scrambledId.ts';
import { latencySummary, round, type LatencySummary } from '../ingest/stats.ts';
import { OP_KINDS, type MixOp, type OpKind } from './opMix.ts';

export interface OpFigures extends LatencySummary {
  readonly errors: number;
  readonly firstError?: string;
  /**
   * With a rate: the op's own time, from when it was sent (the figures above count from when it was due).
   * Their difference is the wait behind the requester's previous op (LinkBench runs one op at a time per requester).
   */
  readonly service?: { readonly p50Ms: number; readonly p99Ms: number };
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
 *
 * With `rate` (ops/s, all clients together; LinkBench's `requestrate`), each
 * requester sends at Poisson arrival times of `rate / clients` (seeded by
 * `rateSeed` and the client), still one op at a time, and an op's latency
 * counts from its scheduled time: an op sent late because the one before it
 * was slow carries that wait (no coordinated omission). So systems are
 * compared at the same offered load, not each at its own saturation.
 */
export async function runClosedLoop(o: {
  clients: number;
  rate?: number;
  rateSeed?: number;
  warmupSeconds: number;
  seconds: number;
  nextOp: (client: number) => () => MixOp;
  execute: (op: MixOp) => Promise<void>;
  onMeasureStart?: () => void;
  onProgress?: (done: number, elapsedSeconds: number) => void;
}): Promise<ClosedLoopResult> {
  const latencies = Object.fromEntries(OP_KINDS.map((k) => [k, [] as number[]])) as Record<OpKind, number[]>;
  const serviceMs = Object.fromEntries(OP_KINDS.map((k) => [k, [] as number[]])) as Record<OpKind, number[]>;
  const errors = Object.fromEntries(OP_KINDS.map((k) => [k, { count: 0, first: undefined as string | undefined }])) as Record<OpKind, { count: number; first: string | undefined }>;
  const t0 = performance.now();
  const measureFrom = t0 + o.warmupSeconds * 1000;
  const stopAt = measureFrom + o.seconds * 1000;
  let measuring = false;
  let done = 0;
  const progress = setInterval(() => o.onProgress?.(done, Math.max(0, (performance.now() - measureFrom) / 1000)), 1_000);
  const perClientMs = o.rate === undefined || o.rate <= 0 ? undefined : (1000 * o.clients) / o.rate;
  const requester = async (client: number) => {
    const next = o.nextOp(client);
    const gap = perClientMs === undefined ? undefined : poissonGaps(createRandom(mix32(client, o.rateSeed ?? 1)), perClientMs);
    let due = t0;
    for (;;) {
      if (gap !== undefined) {
        due += gap();
        if (due >= stopAt) return;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
      }
      const now = performance.now();
      // An open loop that fell behind stops at the window's end too: the ops it did not send show as ops/s below the rate.
      if (now >= stopAt) return;
      // A timer may fire up to a millisecond early: an op that starts before its time counts from its start.
      const start = gap === undefined ? now : Math.min(due, now);
      if (!measuring && start >= measureFrom) {
        measuring = true;
        o.onMeasureStart?.();
      }
      const recorded = start >= measureFrom;
      const op = next();
      try {
        await o.execute(op);
        if (recorded) {
          const end = performance.now();
          latencies[op.kind].push(end - start);
          serviceMs[op.kind].push(end - now);
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
  const service = (k: OpKind) => {
    const { p50Ms, p99Ms } = latencySummary(serviceMs[k]);
    return { service: { p50Ms, p99Ms } };
  };
  const byKind = Object.fromEntries(
    OP_KINDS.map((k) => [
      k,
      { ...latencySummary(latencies[k]), errors: errors[k].count, ...(errors[k].first === undefined ? {} : { firstError: errors[k].first }), ...(perClientMs === undefined ? {} : service(k)) },
    ]),
  ) as Record<OpKind, OpFigures>;
  return { seconds: round(seconds, 2), ops: done, opsPerSecond: round(done / seconds, 1), errors: OP_KINDS.reduce((s, k) => s + errors[k].count, 0), byKind };
}

/** The gaps between Poisson arrivals of mean spacing `meanMs` (exponential), drawn from `random` in [0, 1). */
function poissonGaps(random: () => number, meanMs: number): () => number {
  return () => -Math.log(1 - random()) * meanMs;
}
