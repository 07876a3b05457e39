import pLimit from 'p-limit';
import { latencySummary, round, type LatencySummary } from '../ingest/stats.ts';

export interface OpenLoopResult extends LatencySummary {
  readonly offeredRate: number;
  /** Completed requests per second over the block (below the offered rate when the target cannot keep up). */
  readonly achievedRate: number;
  readonly errors: number;
  readonly firstError?: string;
}

/**
 * An open-loop load generator: request i is due at start + i/rate whatever
 * the earlier ones are doing, at most `connections` are in flight (the rest
 * queue), and a request's latency runs from when it was due, not from when it
 * got a connection — so a slow target shows as latency, not as a lower
 * offered rate (no coordinated omission).
 */
export async function runOpenLoop(o: { rate: number; seconds: number; connections: number; call: () => Promise<void>; onProgress?: (done: number, total: number) => void }): Promise<OpenLoopResult> {
  const total = Math.max(1, Math.round(o.rate * o.seconds));
  const intervalMs = 1000 / o.rate;
  const limit = pLimit(o.connections);
  const ms: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const inFlight: Promise<void>[] = [];
  const t0 = performance.now();
  const issue = (due: number) =>
    limit(async () => {
      try {
        await o.call();
        ms.push(performance.now() - due);
      } catch (e) {
        errors++;
        firstError ??= e instanceof Error ? e.message : String(e);
      }
    });
  let i = 0;
  while (i < total) {
    const now = performance.now();
    while (i < total && t0 + i * intervalMs <= now) inFlight.push(issue(t0 + i++ * intervalMs));
    o.onProgress?.(i, total);
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(5, t0 + i * intervalMs - performance.now()))));
  }
  await Promise.all(inFlight);
  const seconds = (performance.now() - t0) / 1000;
  return { ...latencySummary(ms), offeredRate: o.rate, achievedRate: round(ms.length / seconds, 1), errors, ...(firstError === undefined ? {} : { firstError }) };
}
