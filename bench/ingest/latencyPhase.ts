import cassandra from 'cassandra-driver';
import type { Admin } from 'kafkajs';
import { qualifiedTable } from '../../sinks/cassandra/schemaCql.ts';
import type { EdgeProducer } from '../../streams/producer/index.ts';
import { pollUntil } from '../shared/pollUntil.ts';
import { committedTotal } from './kafkaOffsets.ts';
import type { ProcessorChild } from './processorChild.ts';
import type { createStatusLine } from './progressLine.ts';
import { maxOf, quantile } from './stats.ts';
import { rowsOfAddEdge, type BenchEdge, type PublishedEdges, type Row } from './workload.ts';

export interface LatencyResult {
  readonly offeredPerSecond: number;
  readonly achievedPerSecond: number;
  readonly seconds: number;
  readonly events: number;
  readonly samples: number;
  /** Sampled events never seen within the timeout. */
  readonly missing: number;
  /** Produce call → every row of the event visible (forward, reverse, both recent entries, props), ms. */
  readonly allRowsMs: { readonly p50: number; readonly p90: number; readonly p99: number; readonly max: number };
  /** Produce call → the forward link visible, ms. */
  readonly forwardMs: { readonly p50: number; readonly p90: number; readonly p99: number; readonly max: number };
  readonly pollIntervalMs: number;
  /** Point reads the sampler issued, per second of the phase (its own load on Cassandra). */
  readonly samplerReadsPerSecond: number;
  /** Largest produced-but-uncommitted count seen (stays small below saturation). */
  readonly peakBacklog: number;
  /** Events committed per second while the producer was issuing. */
  readonly committedPerSecondWhileIssuing: number;
  /** Produced-but-uncommitted events when the producer stopped issuing. */
  readonly backlogAtEnd: number;
  /** The pipeline did not keep up: more than 2 s of offered traffic was queued when issuing stopped. */
  readonly saturated: boolean;
}

/**
 * The latency phase: an open-loop producer at a fixed rate (events issued on a
 * 5 ms tick to match rate × elapsed, never waiting for acks), while ~`samplesPerSecond`
 * of the events are followed by a point-read loop in Cassandra: the forward
 * link is read until it carries the event's write time, then the other rows of
 * the event until each is there (re-read after max(`pollIntervalMs`, 10% of the
 * wait so far), at most 8 sampler reads in flight). Latency is measured
 * from the produce call (so it includes the SDK's linger, the Kafka round
 * trip, the consumer fetch, decode, reads, writes) to the read that first saw
 * the row. Samples from the first `warmupSeconds` are discarded.
 */
export async function runLatencyPhase(o: {
  admin: Admin;
  producer: EdgeProducer;
  cql: cassandra.Client;
  keyspace: string;
  child: ProcessorChild;
  groupId: string;
  topic: string;
  edgeType: string;
  workload: Iterator<BenchEdge>;
  published: PublishedEdges;
  ratePerSecond: number;
  seconds: number;
  warmupSeconds: number;
  samplesPerSecond: number;
  pollIntervalMs: number;
  status: ReturnType<typeof createStatusLine>;
  label: string;
  onSample?: (s: { produced: number; committed: number }) => void;
}): Promise<LatencyResult> {
  const base = await committedTotal(o.admin, o.groupId, o.topic);
  const sampleEvery = Math.max(1, Math.round(o.ratePerSecond / o.samplesPerSecond));
  const allRows: number[] = [];
  const forward: number[] = [];
  let missing = 0;
  let issued = 0;
  let acked = 0;
  let committed = 0;
  let peakBacklog = 0;
  let failure: unknown;
  const followers: Promise<void>[] = [];
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  // The sampler must not load Cassandra much itself: at most SAMPLER_READS_IN_FLIGHT reads at a time,
  // and each key is re-read after max(pollIntervalMs, 10% of the time waited so far), capped at 200 ms,
  // so the resolution is 10% of the latency (never coarser than 200 ms) and a slow event costs few reads.
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  let samplerReads = 0;
  const acquire = async () => {
    while (inFlight >= SAMPLER_READS_IN_FLIGHT) await new Promise<void>((r) => waiting.push(r));
    inFlight++;
  };
  const release = () => {
    inFlight--;
    waiting.shift()?.();
  };
  const readWriteTime = async (row: Row): Promise<bigint | undefined> => {
    await acquire();
    try {
      samplerReads++;
      const rs = await o.cql.execute(`SELECT WRITETIME(value) AS wt FROM ${qualifiedTable(o.keyspace, row.table)} WHERE id = ? AND key = ?`, [row.id, row.key], {
        prepare: true,
        consistency: cassandra.types.consistencies.localQuorum, // as the store writes
      });
      const wt = rs.first()?.['wt'] as bigint | null | undefined;
      return wt ?? undefined;
    } finally {
      release();
    }
  };
  const visibleAt = (row: Row, sentAt: number, deadline: number): Promise<number | undefined> =>
    pollUntil(
      async () => {
        const wt = await readWriteTime(row);
        return wt !== undefined && wt >= row.writeTime;
      },
      { since: sentAt, deadline, minIntervalMs: o.pollIntervalMs },
    );
  const follow = async (sentAt: number, edge: BenchEdge, mutationId: string, eventTime: bigint, keep: boolean): Promise<void> => {
    const rows = rowsOfAddEdge(o.edgeType, edge, mutationId, eventTime);
    const deadline = performance.now() + 60_000;
    const fwd = await visibleAt(rows[0] as Row, sentAt, deadline);
    if (fwd === undefined) {
      if (keep) missing++;
      return;
    }
    const rest = await Promise.all(rows.slice(1).map((r) => visibleAt(r, sentAt, deadline)));
    if (rest.some((t) => t === undefined)) {
      if (keep) missing++;
      return;
    }
    if (!keep) return;
    forward.push(fwd - sentAt);
    allRows.push(Math.max(fwd, ...(rest as number[])) - sentAt);
  };

  const total = Math.round(o.ratePerSecond * o.seconds);
  const t0 = performance.now();
  const issue = (): void => {
    const edge = o.workload.next().value as BenchEdge;
    const index = issued++;
    const sentAt = performance.now();
    const p = o.producer.addEdge({ type: o.edgeType, src: edge.src, dst: edge.dst, properties: edge.properties });
    p.then(
      (sent) => {
        acked++;
        o.published.add(edge, sent.mutationId, sent.eventTime);
        if (index % sampleEvery === 0) followers.push(follow(sentAt, edge, sent.mutationId, sent.eventTime, sentAt - t0 >= o.warmupSeconds * 1000).catch((e: unknown) => void (failure ??= e)));
      },
      (e: unknown) => void (failure ??= e),
    );
  };

  let watching = true;
  const watch = (async () => {
    while (watching) {
      committed = (await committedTotal(o.admin, o.groupId, o.topic)) - base;
      peakBacklog = Math.max(peakBacklog, acked - committed);
      o.onSample?.({ produced: acked, committed });
      const secs = (performance.now() - t0) / 1000;
      o.status.update(`${o.label}: ${o.ratePerSecond}/s offered, ${issued} issued, ${committed} committed, backlog ${acked - committed}, ${allRows.length} samples, ${secs.toFixed(0)}/${o.seconds} s`);
      await sleep(100);
    }
  })();

  while (issued < total && failure === undefined) {
    if (o.child.exitedEarly()) throw new Error(`processor child exited during the latency phase:\n${o.child.tail().join('\n')}`);
    const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * o.ratePerSecond));
    while (issued < due) issue();
    await sleep(5);
  }
  const issueSeconds = (performance.now() - t0) / 1000;
  const committedAtIssueEnd = (await committedTotal(o.admin, o.groupId, o.topic)) - base;
  const backlogAtEnd = issued - committedAtIssueEnd;
  await o.producer.flush();
  await Promise.all(followers);
  for (;;) {
    committed = (await committedTotal(o.admin, o.groupId, o.topic)) - base;
    if (committed >= issued || failure !== undefined) break;
    await sleep(50);
  }
  watching = false;
  await watch;
  if (failure !== undefined) throw failure;
  const pct = (xs: number[]) => ({ p50: r1(quantile(xs, 0.5)), p90: r1(quantile(xs, 0.9)), p99: r1(quantile(xs, 0.99)), max: r1(maxOf(xs)) });
  return {
    offeredPerSecond: o.ratePerSecond,
    achievedPerSecond: Math.round(issued / issueSeconds),
    seconds: Math.round(issueSeconds * 10) / 10,
    events: issued,
    samples: allRows.length,
    missing,
    allRowsMs: pct(allRows),
    forwardMs: pct(forward),
    pollIntervalMs: o.pollIntervalMs,
    samplerReadsPerSecond: Math.round(samplerReads / issueSeconds),
    peakBacklog,
    committedPerSecondWhileIssuing: Math.round(committedAtIssueEnd / issueSeconds),
    backlogAtEnd,
    saturated: backlogAtEnd > 2 * o.ratePerSecond,
  };
}

const SAMPLER_READS_IN_FLIGHT = 8;
const r1 = (x: number) => Math.round(x * 10) / 10;
