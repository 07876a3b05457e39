import pLimit from 'p-limit';
import { latencySummary, round } from '../ingest/stats.ts';
import { pollUntil } from '../shared/pollUntil.ts';
import type { AckedWrite } from './edgestreamTarget.ts';

/** Reads in flight for all probes together, so the probe never adds more than this to the server's load. */
const PROBE_READS_IN_FLIGHT = 4;
const GIVE_UP_MS = 30_000;

/**
 * Write → visible during the mix: every `every`-th acknowledged write is
 * followed by reads of its link until the link carries the write's mutation
 * id; latency = Kafka's ack → the first read that saw it. Reads wait
 * max(10 ms, 10% of the wait so far), at most 200 ms, and at most
 * PROBE_READS_IN_FLIGHT run at once. A write not seen within 30 s (or
 * superseded meanwhile by another write of the same link) counts as not seen.
 */
export function createVisibilityProbe(o: { every: number; sees: (w: AckedWrite) => Promise<boolean> }) {
  const limit = pLimit(PROBE_READS_IN_FLIGHT);
  let writes = 0;
  let reads = 0;
  const ms: number[] = [];
  let notSeen = 0;
  let errors = 0;
  const pending = new Set<Promise<void>>();
  let t0 = performance.now();
  /** Probes of writes made before the last `startRecording` run on but are not counted. */
  let generation = 0;

  const follow = async (w: AckedWrite) => {
    const mine = generation;
    const seenAt = await pollUntil(
      () =>
        limit(() => {
          reads++;
          return o.sees(w);
        }),
      { since: w.ackedAt, deadline: w.ackedAt + GIVE_UP_MS, minIntervalMs: 10 },
    );
    if (mine !== generation) return;
    if (seenAt === undefined) notSeen++;
    else ms.push(seenAt - w.ackedAt);
  };

  return {
    onWrite(w: AckedWrite): void {
      if (writes++ % o.every !== 0) return;
      const p = follow(w).catch(() => void errors++);
      pending.add(p);
      void p.then(() => pending.delete(p));
    },
    /** Counts from now on (the mix's measured window opens). */
    startRecording(): void {
      generation++;
      writes = 0;
      reads = 0;
      ms.length = 0;
      notSeen = 0;
      errors = 0;
      t0 = performance.now();
    },
    /** Waits for the probes still running, then reports what was recorded. */
    async collect() {
      await Promise.all(pending);
      const seconds = (performance.now() - t0) / 1000;
      return { ...latencySummary(ms), sampledOneIn: o.every, notSeen, errors, probeReadsPerSecond: round(reads / seconds, 1) };
    },
  };
}

export type VisibilityFigures = Awaited<ReturnType<ReturnType<typeof createVisibilityProbe>['collect']>>;
