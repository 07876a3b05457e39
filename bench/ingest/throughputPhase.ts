import type { Admin } from 'kafkajs';
import type { EdgeProducer } from '../../streams/producer/index.ts';
import { committedTotal, endOffsetTotal } from './kafkaOffsets.ts';
import type { ProcessorChild } from './processorChild.ts';
import type { createStatusLine } from './progressLine.ts';

export interface ThroughputResult {
  readonly events: number;
  readonly rows: number;
  /** First produce call → the fan-out group committed the last event (every write acknowledged, so visible). */
  readonly endToEndSeconds: number;
  readonly edgesPerSecond: number;
  readonly rowsPerSecond: number;
  /** First produce call → the producer's flush resolved (all events acknowledged by Kafka). */
  readonly produceSeconds: number;
  readonly produceEventsPerSecond: number;
  /** Largest produced-but-uncommitted count seen. */
  readonly peakBacklog: number;
  /** Events committed while the producer was running / after it finished, with their rates. */
  readonly whileProducing: { readonly events: number; readonly perSecond: number };
  readonly drainAfterProduce: { readonly events: number; readonly seconds: number; readonly perSecond: number };
}

/**
 * The throughput phase: with the processors already consuming an empty topic,
 * publish `events` events as fast as the producer SDK goes (`publish(i)` is
 * called in order, at most 8 000 unacknowledged, and resolves with the rows
 * the event stands for; the pipeline drains concurrently; the producer
 * outruns it, so a backlog builds), then wait
 * until the fan-out group has committed every one and the repair group every
 * record handed to it. The fan-out commits a chunk only after its writes were
 * acknowledged by Cassandra or handed to the repair topic, and the repair group
 * likewise, so both caught up is the moment the last write is visible.
 * Committed offsets are polled every `pollMs`.
 */
export async function runThroughputPhase(o: {
  admin: Admin;
  producer: Pick<EdgeProducer, 'flush'>;
  child: ProcessorChild;
  groupId: string;
  topic: string;
  events: number;
  publish: (i: number) => Promise<number>;
  status: ReturnType<typeof createStatusLine>;
  label: string;
  pollMs?: number;
  onSample?: (s: { produced: number; committed: number }) => void;
  /**
   * The repair stage's group and topic: the phase also waits until it has committed every record
   * handed to it, since a write that failed in the fan-out is written only then (on an overloaded
   * cluster most of them).
   */
  repair?: { readonly group: string; readonly topic: string };
}): Promise<ThroughputResult> {
  const pollMs = o.pollMs ?? 50;
  const base = await committedTotal(o.admin, o.groupId, o.topic);
  let produced = 0;
  let committed = 0;
  let peakBacklog = 0;
  let producing = true;
  let failure: unknown;
  let rows = 0;

  const t0 = performance.now();
  let tProduced = 0;
  let committedAtProduced = 0;

  const produce = async () => {
    const inFlight = new Set<Promise<void>>();
    for (let i = 0; i < o.events && failure === undefined; i++) {
      const p = o.publish(i).then(
        (eventRows) => {
          rows += eventRows;
          produced++;
        },
        (e: unknown) => {
          failure ??= e;
        },
      );
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
      if (inFlight.size >= 8_000) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    await o.producer.flush();
    tProduced = performance.now();
    committedAtProduced = committed;
    producing = false;
  };

  /** Records the repair group has not committed yet (0 without a repair stage). */
  const repairBacklog = async (): Promise<number> => {
    if (o.repair === undefined) return 0;
    const [end, done] = await Promise.all([endOffsetTotal(o.admin, o.repair.topic), committedTotal(o.admin, o.repair.group, o.repair.topic)]);
    return Math.max(0, end - done);
  };

  const watch = async () => {
    for (;;) {
      if (o.child.exitedEarly()) throw new Error(`processor child exited during the throughput phase:\n${o.child.tail().join('\n')}`);
      committed = (await committedTotal(o.admin, o.groupId, o.topic)) - base;
      const backlog = produced - committed;
      if (backlog > peakBacklog) peakBacklog = backlog;
      o.onSample?.({ produced, committed });
      const secs = (performance.now() - t0) / 1000;
      o.status.update(`${o.label}: produced ${produced}/${o.events}, committed ${committed} (${Math.round(committed / secs)}/s), backlog ${backlog}, ${secs.toFixed(0)} s`);
      if (!producing && committed >= o.events && (await repairBacklog()) === 0) return performance.now();
      if (failure !== undefined) throw failure;
      await new Promise((r) => setTimeout(r, pollMs));
    }
  };

  const [, tEnd] = await Promise.all([produce(), watch()]);
  if (failure !== undefined) throw failure;
  const e2e = (tEnd - t0) / 1000;
  const produceSeconds = (tProduced - t0) / 1000;
  const drainSeconds = (tEnd - tProduced) / 1000;
  return {
    events: o.events,
    rows,
    endToEndSeconds: round2(e2e),
    edgesPerSecond: Math.round(o.events / e2e),
    rowsPerSecond: Math.round(rows / e2e),
    produceSeconds: round2(produceSeconds),
    produceEventsPerSecond: Math.round(o.events / produceSeconds),
    peakBacklog,
    whileProducing: { events: committedAtProduced, perSecond: Math.round(committedAtProduced / produceSeconds) },
    drainAfterProduce: {
      events: o.events - committedAtProduced,
      seconds: round2(drainSeconds),
      perSecond: drainSeconds > 0 ? Math.round((o.events - committedAtProduced) / drainSeconds) : 0,
    },
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
