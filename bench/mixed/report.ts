import type { ThroughputResult } from '../ingest/throughputPhase.ts';
import { acrossRepeats, fmt, median, round, type AcrossRepeats } from '../ingest/stats.ts';
import type { PhaseCpu } from '../shared/measuredCpu.ts';
import { resultHeader, type ResultContext } from '../shared/resultHeader.ts';
import type { AnswerCheck } from './answerCheck.ts';
import type { MixedBenchArgs } from './args.ts';
import type { CountSettle } from './countSettle.ts';
import { LINKBENCH_MIX, LINKS_LIST_LIMIT, MULTIGET_MAX, OP_KINDS, P_EXISTING } from './opMix.ts';
import type { BlockResult, SystemName } from './requestBlock.ts';
import { labelValue, type MeanOver, type ServerTimings } from './serverTimings.ts';

/** Issue 24's absolute targets (the others are relative to PostgreSQL, which this bench does not run). */
export const TARGETS = { countSettleSeconds: 60, writeVisibleP99Ms: 1_000 } as const;

export interface RepeatBlocks {
  readonly repeat: number;
  readonly order: readonly SystemName[];
  readonly edgestream: BlockResult;
  readonly raw: BlockResult;
}

export interface MixedFigures {
  readonly graph: { readonly ids: number; readonly links: number; readonly maxDegree: number; readonly meanDegree: number };
  /** The fan-out's drain (ThroughputResult), then the repair topic's: every link visible at `visibleSeconds` after the first produce. */
  readonly load: ThroughputResult & {
    readonly cpu: PhaseCpu;
    readonly repairs: { readonly records: number; readonly drained: boolean };
    readonly visibleSeconds: number;
    readonly visibleLinksPerSecond: number;
  };
  readonly counts: CountSettle & { readonly recountRounds: number; readonly recountMarks: number };
  readonly rawLoad: { readonly links: number; readonly seconds: number; readonly linksPerSecond: number; readonly concurrency: number; readonly cpu: PhaseCpu };
  readonly answers: AnswerCheck;
  readonly repeats: readonly RepeatBlocks[];
  /** The processor child's warn/error log lines and the repair and DLQ topics' records at the end. */
  readonly pipeline: { readonly warnings: number; readonly errors: number; readonly repairRecords: number; readonly dlqRecords: number };
}

const total = OP_KINDS.reduce((s, k) => s + LINKBENCH_MIX[k], 0);

const METHOD = {
  graph: `--ids vertices; the out-degree of rank r is ∝ 1/(r+1)^--degree-exponent scaled to a mean of --mean-degree (bench/mixed/linkGraph); each link's destination, edge time (the client's \`time\`, spread over the day before the load) and data (${32}–${100} random bytes) are a pure function of (seed, source, j); destinations distinct per source`,
  load: 'every link published as an ADD_EDGE EdgeMutation (edge_time, data) through the producer SDK (streams/producer) flat out, at most 8 000 unacknowledged, while real processors run (`node bin/edgestream.js --config <run> run`: every stage, a child process); fan-out caught up = first produce call → the fan-out group committed the last offset (bench/ingest/throughputPhase: a commit follows acknowledged Cassandra writes or the hand-off to the repair topic); visible = then also the repair group committed the repair topic\'s end; drain rate = links ÷ visible time',
  counts: 'after the drain: per sampled vertex (the 10 most linked, the rest uniform) the ACTIVE links of its link_out partition read with the raw driver (and checked against the links published), then its degrees cell (what COUNT_LINK reads) every 2 s until all equal; settle = drain → the poll that found every one equal (resolution: the poll period plus the reads)',
  raw: 'the raw cassandra-driver in the bench process, own keyspace, prepared statements at LOCAL_QUORUM: links (src, dst) → time, data, visible; links_by_time (src, time DESC, dst) → data (visible links only); link_counts (src) → counter. GET_LINKS_LIST = one slice LIMIT 50 of links_by_time; MULTIGET_LINK = SELECT … WHERE src = ? AND dst IN ?; COUNT_LINK = one point read of link_counts; ADD/UPDATE = read the link, one unlogged batch (links + links_by_time, minus the old time\'s row), counter +1 when it was not visible; DELETE = read the link, if visible one unlogged batch (visible = false, the time row deleted) and counter −1. Loaded with the same links (one batch per link, one counter update per vertex) after the edgestream load',
  edgestream: `reads over HTTP (keep-alive) from a real \`edgestream serve\` child: GET_LINKS_LIST = GET /v1/vertices/{src}/out/link?limit=${LINKS_LIST_LIMIT} (newest first), MULTIGET_LINK = GET /v1/edges/link/{src}?dst=…, COUNT_LINK = GET /v1/vertices/{src}/degree/link?direction=out; writes through the producer SDK in the bench process, each awaited until Kafka acknowledged it: ADD/UPDATE = addEdge(edgeTime = now, data), DELETE = the multi-get of the link, then hideEdge(its time and data) if ACTIVE`,
  mix: `${OP_KINDS.map((k) => `${k} ${LINKBENCH_MIX[k]}%`).join(', ')} (weights ÷ ${total}); sources Zipf(--access-exponent) by rank; MULTIGET 1–${MULTIGET_MAX} links; UPDATE/DELETE/MULTIGET targets a loaded link of the source with probability ${P_EXISTING}, else a random vertex; ADD a random other vertex; new data 32–100 bytes`,
  requestPhase: '--clients closed-loop requesters per system (each sends its next op when the previous answered), op streams seeded by (seed, repeat, client) so both systems run the same sequences; --warmup s unrecorded, then --seconds recorded; latency = the call\'s wall time (a write: until Kafka\'s ack for edgestream, until Cassandra\'s for raw); the systems alternate within each repeat, the first one rotating; with --raw-beside paused, edgestream\'s processor and server are SIGSTOPped during the raw blocks; the processors and the recounter keep running during edgestream\'s blocks',
  visibility: 'a --visible-share of edgestream\'s acknowledged writes is followed by multi-get reads of the link over HTTP until it carries the write\'s mutation id (reads every max(10 ms, 10% of the wait), at most 200 ms, ≤ 4 in flight); ack → first read that saw it',
  server: 'edgestream serve\'s /metrics scraped when each edgestream window opens and after it: mean edgestream_http_request_duration_seconds per route (the server\'s own time per request), mean edgestream_read_duration_seconds and edgestream_read_queries per reader operation; the client\'s latency minus these is time outside the server\'s handlers (sockets, event-loop queues, the client)',
  cpu: '/proc/<pid>/stat of each process over the measured window (bench/ingest/procStats): CPU ms per op = cores × seconds ÷ ops completed; bench = this process (HTTP client, producer, raw driver, op generation)',
  answers: 'before the mix, for --answer-sample sampled vertices: the newest page of 50 (peer, time, data in order), a multi-get of up to 3 loaded links and (when the counts settled) the count must be equal on both systems',
};

const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 2) : Number.NaN);
const over = (blocks: readonly BlockResult[], f: (b: BlockResult) => number): AcrossRepeats => acrossRepeats(blocks.map(f));
const perKindRate = (b: BlockResult, k: (typeof OP_KINDS)[number]) => b.byKind[k].samples / b.seconds;

/** The median over blocks of the server's own mean per route (200s), per reader operation (ok) and its partition reads. */
function serverSide(blocks: readonly BlockResult[]) {
  const medians = (pick: (t: ServerTimings) => readonly MeanOver[], keep: (labels: string) => string | undefined) => {
    const by = new Map<string, number[]>();
    for (const b of blocks) for (const m of b.server ? pick(b.server) : []) {
      const key = keep(m.labels);
      if (key !== undefined) by.set(key, [...(by.get(key) ?? []), m.mean]);
    }
    return Object.fromEntries([...by].map(([k, xs]) => [k, round(median(xs), 2)]));
  };
  return {
    httpMs: medians((t) => t.httpMs, (l) => (labelValue(l, 'status') === '200' && labelValue(l, 'route') !== '/metrics' ? labelValue(l, 'route') : undefined)),
    readerMs: medians((t) => t.readerMs, (l) => (labelValue(l, 'outcome') === 'ok' ? labelValue(l, 'operation') : undefined)),
    readerQueries: medians((t) => t.readerQueries, (l) => labelValue(l, 'operation')),
  };
}

function summariseSystem(blocks: readonly BlockResult[]) {
  const processes = [...new Set(blocks.flatMap((b) => Object.keys(b.cpuMsPerOp)))];
  return {
    opsPerSecond: over(blocks, (b) => b.opsPerSecond),
    errors: blocks.reduce((s, b) => s + b.errors, 0),
    byKind: Object.fromEntries(OP_KINDS.map((k) => [k, { p50Ms: over(blocks, (b) => b.byKind[k].p50Ms), p99Ms: over(blocks, (b) => b.byKind[k].p99Ms), opsPerSecond: over(blocks, (b) => perKindRate(b, k)) }])),
    cpuMsPerOp: Object.fromEntries(processes.map((p) => [p, round(median(blocks.map((b) => b.cpuMsPerOp[p] ?? 0)), 3)])),
    cassandraReadsPerOp: round(median(blocks.map((b) => b.cassandraOpsPerOp.totalReads)), 2),
    cassandraWritesPerOp: round(median(blocks.map((b) => b.cassandraOpsPerOp.totalWrites)), 2),
    machineBusyCores: over(blocks, (b) => b.cpu.machineBusyCores),
  };
}

export function buildResult(o: ResultContext<MixedBenchArgs> & { readonly figures: MixedFigures }) {
  const { figures: f } = o;
  const es = f.repeats.map((r) => r.edgestream);
  const raw = f.repeats.map((r) => r.raw);
  const visible = es.flatMap((b) => (b.visibility ? [b.visibility] : []));
  const summary = {
    cores: o.machine.cores,
    load: {
      links: f.load.events,
      producedPerSecond: f.load.produceEventsPerSecond,
      fanOutCaughtUpSeconds: f.load.endToEndSeconds,
      fanOutLinksPerSecond: f.load.edgesPerSecond,
      drainAfterProducePerSecond: f.load.drainAfterProduce.perSecond,
      repairRecords: f.load.repairs.records,
      visibleSeconds: f.load.visibleSeconds,
      drainLinksPerSecond: f.load.visibleLinksPerSecond,
      cpuMicrosPerLink: Object.fromEntries(Object.entries(f.load.cpu.coresByProcess).map(([p, c]) => [p, round((c * f.load.cpu.wallSeconds * 1e6) / f.load.events, 1)])),
      rawLoadLinksPerSecond: f.rawLoad.linksPerSecond,
    },
    counts: { settled: f.counts.settled, secondsAfterDrain: f.counts.secondsAfterDrain, wrongAtEnd: f.counts.wrongAtEnd, target: TARGETS.countSettleSeconds, met: f.counts.settled && f.counts.secondsAfterDrain <= TARGETS.countSettleSeconds },
    edgestream: { ...summariseSystem(es), server: serverSide(es) },
    raw: summariseSystem(raw),
    edgestream_vs_raw: {
      opsPerSecond: acrossRepeats(f.repeats.map((r) => ratio(r.edgestream.opsPerSecond, r.raw.opsPerSecond))),
      p50: Object.fromEntries(OP_KINDS.map((k) => [k, acrossRepeats(f.repeats.map((r) => ratio(r.edgestream.byKind[k].p50Ms, r.raw.byKind[k].p50Ms)))])),
      p99: Object.fromEntries(OP_KINDS.map((k) => [k, acrossRepeats(f.repeats.map((r) => ratio(r.edgestream.byKind[k].p99Ms, r.raw.byKind[k].p99Ms)))])),
    },
    writeVisible: {
      p50Ms: acrossRepeats(visible.map((v) => v.p50Ms)),
      p99Ms: acrossRepeats(visible.map((v) => v.p99Ms)),
      samples: visible.reduce((s, v) => s + v.samples, 0),
      notSeen: visible.reduce((s, v) => s + v.notSeen, 0),
      target: TARGETS.writeVisibleP99Ms,
    },
  };
  return {
    ...resultHeader({ ...o, benchmark: 'bench:mixed', method: METHOD }),
    graph: f.graph,
    load: f.load,
    counts: f.counts,
    rawLoad: f.rawLoad,
    answers: f.answers,
    pipeline: f.pipeline,
    summary,
    repeats: f.repeats,
  };
}

export type MixedBenchResult = ReturnType<typeof buildResult>;

const list = (a: AcrossRepeats, digits = 1) => `${a.repeats.map((x) => fmt(x, digits)).join(' / ')} → ${fmt(a.median, digits)}`;
const pad = (s: string, n: number) => s.padEnd(n);
const num = (x: number, digits = 1) => fmt(x, digits).padStart(8);

export function printSummary(r: MixedBenchResult): void {
  const s = r.summary;
  const load = s.load;
  const cpuLine = (cpu: Record<string, number>) => {
    const sum = Object.values(cpu).reduce((a, b) => a + b, 0);
    return `${Object.entries(cpu).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${fmt(v, 2)}`).join(', ')} = ${fmt(sum, 2)} ms`;
  };
  const lines = [
    '',
    `bench:mixed — LinkBench link mix, ${fmt(r.graph.ids)} ids, ${fmt(r.graph.links)} links (max out-degree ${fmt(r.graph.maxDegree)}); ${r.args.clients} clients × ${r.args.seconds} s × ${r.args.repeats} repeats; ${s.cores} cores (load average at the end ${r.machine.loadAverage.join(' ')}); code ${r.code.commit.slice(0, 12)}${r.code.cleanTree ? ' (clean tree)' : ' (tree NOT clean)'}`,
    `  bulk load      produced ${fmt(load.producedPerSecond)} links/s; every link visible after ${fmt(load.visibleSeconds, 1)} s = ${fmt(load.drainLinksPerSecond)} links/s end to end (fan-out caught up after ${fmt(load.fanOutCaughtUpSeconds, 1)} s, ${fmt(load.drainAfterProducePerSecond)}/s after the producer finished; ${fmt(load.repairRecords)} events through the repair topic)`,
    `                 CPU µs per link: ${Object.entries(load.cpuMicrosPerLink).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${fmt(v, 1)}`).join(', ')}; raw-driver load of the same links: ${fmt(load.rawLoadLinksPerSecond)} links/s`,
    `  counts         ${s.counts.settled ? `every sampled degree exact ${fmt(s.counts.secondsAfterDrain, 1)} s after the drain` : `NOT settled ${fmt(s.counts.secondsAfterDrain, 1)} s after the drain: ${s.counts.wrongAtEnd}/${r.counts.sampled} sampled degrees still wrong`} (${r.counts.recountRounds} recount rounds, ${fmt(r.counts.recountMarks)} marks; target ≤ ${TARGETS.countSettleSeconds} s: ${s.counts.met ? 'met' : 'MISSED'})${r.counts.linkCountMismatches ? `; ${r.counts.linkCountMismatches} sampled link partitions did NOT hold the published links` : ''}`,
    `  answers        ${r.answers.vertices} vertices before the mix: ${r.answers.pageDifferences} page, ${r.answers.multigetDifferences} multi-get, ${r.answers.countDifferences} count differences${r.answers.examples.length ? ` (${r.answers.examples.join('; ')})` : ''}`,
    `  request phase  every figure: repeat 1 / 2 / … → median`,
    `    ${pad('op', 15)}${pad('share', 7)}${'edgestream p50'.padStart(16)}${'p99'.padStart(9)}${'ops/s'.padStart(9)}   ${'raw p50'.padStart(8)}${'p99'.padStart(9)}${'ops/s'.padStart(9)}   p50 × raw  p99 × raw`,
    ...OP_KINDS.map((k) => {
      const e = s.edgestream.byKind[k] as { p50Ms: AcrossRepeats; p99Ms: AcrossRepeats; opsPerSecond: AcrossRepeats };
      const w = s.raw.byKind[k] as typeof e;
      return `    ${pad(k, 15)}${pad(`${fmt((100 * LINKBENCH_MIX[k]) / total, 1)}%`, 7)}${num(e.p50Ms.median, 2).padStart(16)}${num(e.p99Ms.median, 2).padStart(9)}${num(e.opsPerSecond.median)}   ${num(w.p50Ms.median, 2)}${num(w.p99Ms.median, 2).padStart(9)}${num(w.opsPerSecond.median)}   ${num((s.edgestream_vs_raw.p50[k] as AcrossRepeats).median, 1).padStart(9)}${num((s.edgestream_vs_raw.p99[k] as AcrossRepeats).median, 1).padStart(11)}`;
    }),
    `    all ops/s: edgestream ${list(s.edgestream.opsPerSecond)} (${s.edgestream.errors} errors); raw ${list(s.raw.opsPerSecond)} (${s.raw.errors} errors); edgestream ÷ raw ${list(s.edgestream_vs_raw.opsPerSecond, 3)}`,
    `    GET_LINKS_LIST p99 per repeat: edgestream ${list(s.edgestream.byKind['GET_LINKS_LIST']!.p99Ms, 2)} ms; raw ${list(s.raw.byKind['GET_LINKS_LIST']!.p99Ms, 2)} ms`,
    `  write → visible (edgestream, ack → a GET sees it): p50 ${list(s.writeVisible.p50Ms, 0)} ms, p99 ${list(s.writeVisible.p99Ms, 0)} ms; ${s.writeVisible.samples} samples, ${s.writeVisible.notSeen} not seen within 30 s (target p99 ≤ ${TARGETS.writeVisibleP99Ms} ms: ${s.writeVisible.p99Ms.median <= TARGETS.writeVisibleP99Ms ? 'met' : 'MISSED'})`,
    `  edgestream serve's own mean per request (its /metrics, 200s): ${Object.entries(s.edgestream.server.httpMs).map(([k, v]) => `${k} ${fmt(v, 1)} ms`).join(', ')}; reader calls ${Object.entries(s.edgestream.server.readerMs).map(([k, v]) => `${k} ${fmt(v, 1)} ms (${fmt(s.edgestream.server.readerQueries[k] ?? NaN, 2)} queries)`).join(', ')}`,
    `  CPU ms per op  edgestream: ${cpuLine(s.edgestream.cpuMsPerOp)}`,
    `                 raw:        ${cpuLine(s.raw.cpuMsPerOp)}`,
    `  machine busy   edgestream blocks ${list(s.edgestream.machineBusyCores, 2)} cores; raw blocks ${list(s.raw.machineBusyCores, 2)} cores (of ${s.cores})`,
    `  pipeline       processor log: ${r.pipeline.warnings} warnings, ${r.pipeline.errors} errors; repair topic ${r.pipeline.repairRecords} records, DLQ ${r.pipeline.dlqRecords}`,
    `  Cassandra ops per op (own keyspace): edgestream ${s.edgestream.cassandraReadsPerOp} reads, ${s.edgestream.cassandraWritesPerOp} partition writes; raw ${s.raw.cassandraReadsPerOp} reads, ${s.raw.cassandraWritesPerOp} partition writes`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
