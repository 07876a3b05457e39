import type { ThroughputResult } from '../ingest/throughputPhase.ts';
import { acrossRepeats, fmt, median, round, type AcrossRepeats } from '../ingest/stats.ts';
import type { PhaseCpu } from '../shared/measuredCpu.ts';
import type { LogProblem } from '../ingest/processorChild.ts';
import { resultHeader, type ResultContext } from '../shared/resultHeader.ts';
import type { AnswerCheck } from './answerCheck.ts';
import type { MixedBenchArgs } from './args.ts';
import type { CountSettle } from './countSettle.ts';
import { LINKBENCH_MIX, LINKS_LIST_LIMIT, MULTIGET_MAX, OP_KINDS, P_EXISTING } from './opMix.ts';
import type { BlockResult, SystemName } from './requestBlock.ts';
import { labelValue, type MeanOver, type ServerTimings } from './serverTimings.ts';

/** Issue 24's targets: absolute ones, and edgestream's throughput and read p99 against PostgreSQL's in the same run. */
export const TARGETS = { countSettleSeconds: 60, writeVisibleP99Ms: 1_000, opsPerSecondVsPostgres: 0.5, readP99VsPostgres: 3 } as const;
/** The reads issue 24 bounds by PostgreSQL's p99. */
const P99_BOUNDED = ['GET_LINKS_LIST', 'MULTIGET_LINK'] as const;

export interface RepeatBlocks {
  readonly repeat: number;
  readonly order: readonly SystemName[];
  readonly edgestream: BlockResult;
  readonly raw: BlockResult;
  readonly postgres?: BlockResult;
}

/** The PostgreSQL anchor's server, load and answer check (absent with --postgres off or when it cannot run). */
export interface PostgresFigures {
  /** SHOW of the settings the figures come with (durability, memory, version). */
  readonly settings: Readonly<Record<string, string>>;
  readonly load: { readonly links: number; readonly seconds: number; readonly linksPerSecond: number; readonly batchLinks: number; readonly concurrency: number; readonly vacuumAnalyzeSeconds: number; readonly cpu: PhaseCpu };
  /** PostgreSQL against the raw anchor before the mix, counts included (both keep them in their writes). */
  readonly answers: AnswerCheck;
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
  readonly postgres?: PostgresFigures;
  /** Why there is no PostgreSQL anchor, when there is none. */
  readonly postgresSkipped?: string;
  readonly repeats: readonly RepeatBlocks[];
  /** The processor child's warn/error log lines and the repair and DLQ topics' records at the end. */
  /** The processor's log (pino and kafkajs lines): warnings and errors, and what they were (bench/ingest/processorChild). */
  readonly pipeline: { readonly warnings: number; readonly errors: number; readonly problems: readonly LogProblem[]; readonly repairRecords: number; readonly dlqRecords: number };
}

const total = OP_KINDS.reduce((s, k) => s + LINKBENCH_MIX[k], 0);

const METHOD = {
  graph: `--ids vertices; the out-degree of rank r is ∝ 1/(r+1)^--degree-exponent scaled to a mean of --mean-degree (bench/mixed/linkGraph); each link's destination, edge time (the client's \`time\`, spread over the day before the load) and data (${32}–${100} random bytes) are a pure function of (seed, source, j); destinations distinct per source`,
  load: 'every link published as an ADD_EDGE EdgeMutation (edge_time, data) through the producer SDK (streams/producer) flat out, at most 8 000 unacknowledged, while real processors run (`node bin/edgestream.js --config <run> run`: every stage, a child process); fan-out caught up = first produce call → the fan-out group committed the last offset (bench/ingest/throughputPhase: a commit follows acknowledged Cassandra writes or the hand-off to the repair topic); visible = then also the repair group committed the repair topic\'s end; drain rate = links ÷ visible time',
  counts: 'after the drain: per sampled vertex (the 10 most linked, the rest uniform) the ACTIVE links of its link_out partition read with the raw driver (and checked against the links published), then its degrees cell (what COUNT_LINK reads) every 2 s until all equal; settle = drain → the poll that found every one equal (resolution: the poll period plus the reads)',
  raw: 'the raw cassandra-driver in the bench process, own keyspace, prepared statements at LOCAL_QUORUM: links (src, dst) → time, data, visible; links_by_time (src, time DESC, dst) → data (visible links only); link_counts (src) → counter. GET_LINKS_LIST = one slice LIMIT 50 of links_by_time; MULTIGET_LINK = SELECT … WHERE src = ? AND dst IN ?; COUNT_LINK = one point read of link_counts; ADD/UPDATE = read the link, one unlogged batch (links + links_by_time, minus the old time\'s row), counter +1 when it was not visible; DELETE = read the link, if visible one unlogged batch (visible = false, the time row deleted) and counter −1. Loaded with the same links (one batch per link, one counter update per vertex) after the edgestream load',
  postgres: 'PostgreSQL 15 (the binaries installed here) as its own server: initdb into the run\'s directory (C locale, UTF8), one postmaster on a free loopback port run as a non-root user, shared_buffers 256MB, every other setting the default (fsync on, synchronous_commit on, full_page_writes on: a commit returns once its WAL is flushed; the result records the settings); started after the raw load, SIGSTOPped (postmaster and every backend) outside its own blocks, stopped by pid at the end. LinkBench\'s schema cut to the link mix: linktable (id1, link_type, id2, visibility, data, time), primary key (id1, link_type, id2), index (id1, link_type, visibility, time DESC, id2); counttable (id, link_type, count, time). node-postgres in the bench process, a pool of --clients connections, named prepared statements. GET_LINKS_LIST = SELECT … WHERE id1 AND link_type AND visibility = 1 ORDER BY time DESC, id2 LIMIT 50; MULTIGET_LINK = … AND id2 = ANY($3); COUNT_LINK = one counttable row; ADD/UPDATE = one transaction: SELECT … FOR UPDATE of the link, INSERT (ON CONFLICT DO NOTHING, then lock and update when a concurrent ADD won) or UPDATE (visible, data, time), counttable +1 when it was not visible, COMMIT; DELETE = one transaction: SELECT … FOR UPDATE, if visible UPDATE visibility = 0 and counttable −1, COMMIT. Loaded with the same links, batches of links in one transaction each (one INSERT … SELECT FROM unnest(arrays), then the batch\'s counts added to counttable), several in flight, edgestream paused meanwhile: links/s = links ÷ time to the last commit; VACUUM ANALYZE after it, timed apart. CPU = the postmaster\'s tree: each live descendant\'s time plus the postmaster\'s own and its reaped children\'s',
  edgestream: `reads over HTTP (keep-alive) from a real \`edgestream serve\` child: GET_LINKS_LIST = GET /v1/vertices/{src}/out/link?limit=${LINKS_LIST_LIMIT} (newest first), MULTIGET_LINK = GET /v1/edges/link/{src}?dst=…, COUNT_LINK = GET /v1/vertices/{src}/degree/link?direction=out; writes through the producer SDK in the bench process, each awaited until Kafka acknowledged it: ADD/UPDATE = addEdge(edgeTime = now, data), DELETE = the multi-get of the link, then hideEdge(its time and data) if ACTIVE`,
  mix: `${OP_KINDS.map((k) => `${k} ${LINKBENCH_MIX[k]}%`).join(', ')} (weights ÷ ${total}); sources Zipf(--access-exponent) by rank; MULTIGET 1–${MULTIGET_MAX} links; UPDATE/DELETE/MULTIGET targets a loaded link of the source with probability ${P_EXISTING}, else a random vertex; ADD a random other vertex; new data 32–100 bytes`,
  requestPhase: '--clients closed-loop requesters per system (each sends its next op when the previous answered; with --rate R (args.rate > 0) each instead sends at Poisson arrival times of R ÷ clients, still one at a time, latency counted from the scheduled time, so every system serves the same offered load), op streams seeded by (seed, repeat, client) so every system runs the same sequences; --warmup s unrecorded, then --seconds recorded; latency = the call\'s wall time (a write: until Kafka\'s ack for edgestream, until Cassandra\'s for raw, until COMMIT returned for postgres); one block per system within each repeat, the order rotating so each system leads in turn; with --raw-beside paused, edgestream\'s processor and server are SIGSTOPped during the anchors\' blocks; PostgreSQL is SIGSTOPped outside its own; the processors and the recounter keep running during edgestream\'s blocks',
  visibility: 'a --visible-share of edgestream\'s acknowledged writes is followed by multi-get reads of the link over HTTP until it carries the write\'s mutation id (reads every max(10 ms, 10% of the wait), at most 200 ms, ≤ 4 in flight); ack → first read that saw it',
  server: 'edgestream serve\'s /metrics scraped when each edgestream window opens and after it: mean edgestream_http_request_duration_seconds per route (the server\'s own time per request), mean edgestream_read_duration_seconds and edgestream_read_queries per reader operation; the client\'s latency minus these is time outside the server\'s handlers (sockets, event-loop queues, the client)',
  cpu: '/proc/<pid>/stat of each process over the measured window (bench/ingest/procStats): CPU ms per op = cores × seconds ÷ ops completed; bench = this process (HTTP client, producer, raw driver, op generation)',
  answers: 'before the mix, for --answer-sample sampled vertices: the newest page of 50 (peer, time, data in order), a multi-get of up to 3 loaded links and the count must be equal: edgestream against raw (counts when they settled), postgres against raw (counts always)',
};

const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 2) : Number.NaN);
const over = (blocks: readonly BlockResult[], f: (b: BlockResult) => number): AcrossRepeats => acrossRepeats(blocks.map(f));
const perKindRate = (b: BlockResult, k: (typeof OP_KINDS)[number]) => b.byKind[k].samples / b.seconds;

/** The median over blocks of the server's own mean per route (200s), per reader operation (ok) and its partition reads. */
function serverSide(blocks: readonly BlockResult[]) {
  const medians = (pick: (t: ServerTimings) => readonly MeanOver[], keep: (labels: string) => string | undefined, value: (m: MeanOver) => number | undefined = (m) => m.mean, digits = 2) => {
    const by = new Map<string, number[]>();
    for (const b of blocks) for (const m of b.server ? pick(b.server) : []) {
      const key = keep(m.labels);
      const v = value(m);
      if (key !== undefined && v !== undefined) by.set(key, [...(by.get(key) ?? []), v]);
    }
    return Object.fromEntries([...by].map(([k, xs]) => [k, round(median(xs), digits)]));
  };
  const route = (l: string) => (labelValue(l, 'status') === '200' && labelValue(l, 'route') !== '/metrics' ? labelValue(l, 'route') : undefined);
  const operation = (l: string) => (labelValue(l, 'outcome') === 'ok' ? labelValue(l, 'operation') : undefined);
  return {
    httpMs: medians((t) => t.httpMs, route),
    /** Shares of requests the server itself took more than 10 ms, and 50 ms, over: where a client's p99 comes from. */
    httpOver10Ms: medians((t) => t.httpMs, route, (m) => m.over10Ms, 4),
    httpOver50Ms: medians((t) => t.httpMs, route, (m) => m.over50Ms, 4),
    readerMs: medians((t) => t.readerMs, operation),
    readerOver10Ms: medians((t) => t.readerMs, operation, (m) => m.over10Ms, 4),
    readerQueries: medians((t) => t.readerQueries, (l) => labelValue(l, 'operation')),
  };
}

/**
 * With a rate, the p99s above count from when an op was due; these count from when it was sent, so the
 * difference is the wait behind the same requester's previous op (a slow write delays the read after it).
 */
function serviceLines(systems: readonly (readonly [string, Readonly<Record<string, { readonly serviceP99Ms?: AcrossRepeats }>>])[]): string[] {
  const kinds = ['GET_LINKS_LIST', 'MULTIGET_LINK', 'ADD_LINK'];
  if (systems.some(([, byKind]) => kinds.some((k) => byKind[k]?.serviceP99Ms === undefined))) return [];
  return [`    p99 from when sent (not due): ${kinds.map((k) => `${k} ${systems.map(([name, byKind]) => `${name} ${list(byKind[k]?.serviceP99Ms as AcrossRepeats, 2)}`).join(', ')} ms`).join('; ')}`];
}

/** Server → thread pool → median over the blocks of its CPU ms per op (a pool missing from a block counts 0 there), largest first. */
export function threadPoolMedians(blocks: readonly BlockResult[]): Record<string, Record<string, number>> {
  const servers = [...new Set(blocks.flatMap((b) => Object.keys(b.cpuMsPerOpByThreadPool ?? {})))];
  return Object.fromEntries(servers.map((server) => {
    const pools = [...new Set(blocks.flatMap((b) => Object.keys(b.cpuMsPerOpByThreadPool?.[server] ?? {})))];
    const medians = pools.map((pool) => [pool, round(median(blocks.map((b) => b.cpuMsPerOpByThreadPool?.[server]?.[pool] ?? 0)), 3)] as const);
    return [server, Object.fromEntries(medians.sort((a, b) => b[1] - a[1]))];
  }));
}

function summariseSystem(blocks: readonly BlockResult[]) {
  const processes = [...new Set(blocks.flatMap((b) => Object.keys(b.cpuMsPerOp)))];
  return {
    opsPerSecond: over(blocks, (b) => b.opsPerSecond),
    errors: blocks.reduce((s, b) => s + b.errors, 0),
    byKind: Object.fromEntries(
      OP_KINDS.map((k) => {
        const service = blocks.every((b) => b.byKind[k].service !== undefined) ? { serviceP99Ms: over(blocks, (b) => b.byKind[k].service?.p99Ms ?? NaN) } : {};
        return [k, { p50Ms: over(blocks, (b) => b.byKind[k].p50Ms), p99Ms: over(blocks, (b) => b.byKind[k].p99Ms), ...service, opsPerSecond: over(blocks, (b) => perKindRate(b, k)) }];
      }),
    ),
    cpuMsPerOp: Object.fromEntries(processes.map((p) => [p, round(median(blocks.map((b) => b.cpuMsPerOp[p] ?? 0)), 3)])),
    cpuMsPerOpByThreadPool: threadPoolMedians(blocks),
    cassandraReadsPerOp: round(median(blocks.flatMap((b) => (b.cassandraOpsPerOp ? [b.cassandraOpsPerOp.totalReads] : []))), 2),
    cassandraWritesPerOp: round(median(blocks.flatMap((b) => (b.cassandraOpsPerOp ? [b.cassandraOpsPerOp.totalWrites] : []))), 2),
    machineBusyCores: over(blocks, (b) => b.cpu.machineBusyCores),
  };
}

/** Per repeat, system ÷ anchor: ops/s and per op kind p50 and p99 (latency × the anchor's). */
function versus<R extends RepeatBlocks>(repeats: readonly R[], system: (r: R) => BlockResult, anchor: (r: R) => BlockResult) {
  const per = (f: (b: BlockResult) => number) => acrossRepeats(repeats.map((r) => ratio(f(system(r)), f(anchor(r)))));
  return {
    opsPerSecond: per((b) => b.opsPerSecond),
    p50: Object.fromEntries(OP_KINDS.map((k) => [k, per((b) => b.byKind[k].p50Ms)])),
    p99: Object.fromEntries(OP_KINDS.map((k) => [k, per((b) => b.byKind[k].p99Ms)])),
  };
}

export function buildResult(o: ResultContext<MixedBenchArgs> & { readonly figures: MixedFigures }) {
  const { figures: f } = o;
  const es = f.repeats.map((r) => r.edgestream);
  const raw = f.repeats.map((r) => r.raw);
  const withPostgres = f.repeats.every((r) => r.postgres) && f.repeats.length > 0 && f.postgres ? (f.repeats as readonly (RepeatBlocks & { postgres: BlockResult })[]) : undefined;
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
    edgestream_vs_raw: versus(f.repeats, (r) => r.edgestream, (r) => r.raw),
    ...(withPostgres ? postgresSummary(withPostgres, f.postgres as PostgresFigures, o.args.rate) : {}),
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
    ...(f.postgres ? { postgres: f.postgres } : { postgresSkipped: f.postgresSkipped ?? 'not run' }),
    pipeline: f.pipeline,
    summary,
    repeats: f.repeats,
  };
}

/**
 * PostgreSQL's blocks summarised, edgestream ÷ postgres (and raw ÷ postgres), and issue 24's relative targets;
 * at an offered `rate` every system serves that load, so the throughput target is not judged (the p99s are).
 */
function postgresSummary(repeats: readonly (RepeatBlocks & { postgres: BlockResult })[], f: PostgresFigures, rate: number) {
  const edgestreamVsPostgres = versus(repeats, (r) => r.edgestream, (r) => r.postgres);
  const opsMedian = edgestreamVsPostgres.opsPerSecond.median;
  return {
    postgres: { ...summariseSystem(repeats.map((r) => r.postgres)), loadLinksPerSecond: f.load.linksPerSecond },
    edgestream_vs_postgres: edgestreamVsPostgres,
    raw_vs_postgres: versus(repeats, (r) => r.raw, (r) => r.postgres),
    postgresTargets: {
      ...(rate > 0 ? {} : { opsPerSecond: { target: TARGETS.opsPerSecondVsPostgres, median: opsMedian, met: opsMedian >= TARGETS.opsPerSecondVsPostgres } }),
      ...Object.fromEntries(P99_BOUNDED.map((k) => {
        const m = (edgestreamVsPostgres.p99[k] as AcrossRepeats).median;
        return [`${k}_p99`, { target: TARGETS.readP99VsPostgres, median: m, met: m <= TARGETS.readP99VsPostgres }];
      })),
    },
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
  const pg = s.postgres && s.edgestream_vs_postgres && s.raw_vs_postgres && s.postgresTargets ? { postgres: s.postgres, edgestream_vs_postgres: s.edgestream_vs_postgres, raw_vs_postgres: s.raw_vs_postgres, postgresTargets: s.postgresTargets } : undefined;
  const pgFigures = 'postgres' in r ? r.postgres : undefined;
  const pgLine = pgFigures
    ? `  postgres       ${pgFigures.settings['server_version']}: loaded ${fmt(pgFigures.load.linksPerSecond)} links/s committed (${fmt(pgFigures.load.links)} links in ${fmt(pgFigures.load.seconds, 1)} s, ${pgFigures.load.batchLinks} per transaction, ${pgFigures.load.concurrency} in flight; VACUUM ANALYZE ${fmt(pgFigures.load.vacuumAnalyzeSeconds, 1)} s); fsync ${pgFigures.settings['fsync']}, synchronous_commit ${pgFigures.settings['synchronous_commit']}, shared_buffers ${pgFigures.settings['shared_buffers']}; answers against raw: ${pgFigures.answers.pageDifferences} page, ${pgFigures.answers.multigetDifferences} multi-get, ${pgFigures.answers.countDifferences} count differences${pgFigures.answers.examples.length ? ` (${pgFigures.answers.examples.join('; ')})` : ''}`
    : `  postgres       not run: ${'postgresSkipped' in r ? r.postgresSkipped : 'unknown'}`;
  const lines = [
    '',
    `bench:mixed — LinkBench link mix, ${fmt(r.graph.ids)} ids, ${fmt(r.graph.links)} links (max out-degree ${fmt(r.graph.maxDegree)}); ${r.args.clients} clients${r.args.rate > 0 ? ` offering ${fmt(r.args.rate)} ops/s (open loop)` : ' (closed loop)'} × ${r.args.seconds} s × ${r.args.repeats} repeats; ${s.cores} cores (load average at the end ${r.machine.loadAverage.join(' ')}); code ${r.code.commit.slice(0, 12)}${r.code.cleanTree ? ' (clean tree)' : ' (tree NOT clean)'}`,
    `  bulk load      produced ${fmt(load.producedPerSecond)} links/s; every link visible after ${fmt(load.visibleSeconds, 1)} s = ${fmt(load.drainLinksPerSecond)} links/s end to end (fan-out caught up after ${fmt(load.fanOutCaughtUpSeconds, 1)} s, ${fmt(load.drainAfterProducePerSecond)}/s after the producer finished; ${fmt(load.repairRecords)} events through the repair topic)`,
    `                 CPU µs per link: ${Object.entries(load.cpuMicrosPerLink).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${fmt(v, 1)}`).join(', ')}; raw-driver load of the same links: ${fmt(load.rawLoadLinksPerSecond)} links/s`,
    `  counts         ${s.counts.settled ? `every sampled degree exact ${fmt(s.counts.secondsAfterDrain, 1)} s after the drain` : `NOT settled ${fmt(s.counts.secondsAfterDrain, 1)} s after the drain: ${s.counts.wrongAtEnd}/${r.counts.sampled} sampled degrees still wrong`} (${r.counts.recountRounds} recount rounds, ${fmt(r.counts.recountMarks)} marks; target ≤ ${TARGETS.countSettleSeconds} s: ${s.counts.met ? 'met' : 'MISSED'})${r.counts.linkCountMismatches ? `; ${r.counts.linkCountMismatches} sampled link partitions did NOT hold the published links` : ''}`,
    `  answers        ${r.answers.vertices} vertices before the mix: ${r.answers.pageDifferences} page, ${r.answers.multigetDifferences} multi-get, ${r.answers.countDifferences} count differences${r.answers.examples.length ? ` (${r.answers.examples.join('; ')})` : ''}`,
    pgLine,
    `  request phase  every figure: repeat 1 / 2 / … → median`,
    `    ${pad('op', 15)}${pad('share', 7)}${'edgestream p50'.padStart(16)}${'p99'.padStart(9)}${'ops/s'.padStart(9)}   ${'raw p50'.padStart(8)}${'p99'.padStart(9)}${'ops/s'.padStart(9)}${pg ? `   ${'pg p50'.padStart(8)}${'p99'.padStart(9)}${'ops/s'.padStart(9)}` : ''}   p50 × raw  p99 × raw${pg ? '   p50 × pg   p99 × pg' : ''}`,
    ...OP_KINDS.map((k) => {
      const figures = (x: Record<string, unknown>) => x[k] as { p50Ms: AcrossRepeats; p99Ms: AcrossRepeats; opsPerSecond: AcrossRepeats };
      const cells = (x: Record<string, unknown>) => `${num(figures(x).p50Ms.median, 2)}${num(figures(x).p99Ms.median, 2).padStart(9)}${num(figures(x).opsPerSecond.median)}`;
      const times = (v: { p50: Record<string, AcrossRepeats>; p99: Record<string, AcrossRepeats> }) => `${num((v.p50[k] as AcrossRepeats).median, 1).padStart(9)}${num((v.p99[k] as AcrossRepeats).median, 1).padStart(11)}`;
      return `    ${pad(k, 15)}${pad(`${fmt((100 * LINKBENCH_MIX[k]) / total, 1)}%`, 7)}${cells(s.edgestream.byKind).padStart(34)}   ${cells(s.raw.byKind)}${pg ? `   ${cells(pg.postgres.byKind)}` : ''}   ${times(s.edgestream_vs_raw)}${pg ? `  ${times(pg.edgestream_vs_postgres)}` : ''}`;
    }),
    `    all ops/s: edgestream ${list(s.edgestream.opsPerSecond)} (${s.edgestream.errors} errors); raw ${list(s.raw.opsPerSecond)} (${s.raw.errors} errors)${pg ? `; postgres ${list(pg.postgres.opsPerSecond)} (${pg.postgres.errors} errors)` : ''}; edgestream ÷ raw ${list(s.edgestream_vs_raw.opsPerSecond, 3)}${pg ? `; edgestream ÷ postgres ${list(pg.edgestream_vs_postgres.opsPerSecond, 3)}; raw ÷ postgres ${list(pg.raw_vs_postgres.opsPerSecond, 3)}` : ''}`,
    `    GET_LINKS_LIST p99 per repeat: edgestream ${list(s.edgestream.byKind['GET_LINKS_LIST']!.p99Ms, 2)} ms; raw ${list(s.raw.byKind['GET_LINKS_LIST']!.p99Ms, 2)} ms${pg ? `; postgres ${list(pg.postgres.byKind['GET_LINKS_LIST']!.p99Ms, 2)} ms` : ''}`,
    ...serviceLines([['edgestream', s.edgestream.byKind], ['raw', s.raw.byKind], ...(pg ? [['postgres', pg.postgres.byKind] as const] : [])]),
    ...(pg
      ? [`  vs postgres    ${Object.entries(pg.postgresTargets).map(([k, t]) => `${k === 'opsPerSecond' ? 'edgestream ÷ postgres ops/s' : `${k.replace('_p99', ' p99')} × postgres's`} ${fmt(t.median, 2)} (target ${k === 'opsPerSecond' ? '≥' : '≤'} ${t.target}: ${t.met ? 'met' : 'MISSED'})`).join('; ')}`]
      : []),
    `  write → visible (edgestream, ack → a GET sees it): p50 ${list(s.writeVisible.p50Ms, 0)} ms, p99 ${list(s.writeVisible.p99Ms, 0)} ms; ${s.writeVisible.samples} samples, ${s.writeVisible.notSeen} not seen within 30 s (target p99 ≤ ${TARGETS.writeVisibleP99Ms} ms: ${s.writeVisible.p99Ms.median <= TARGETS.writeVisibleP99Ms ? 'met' : 'MISSED'})`,
    `  edgestream serve's own mean per request (its /metrics, 200s): ${Object.entries(s.edgestream.server.httpMs).map(([k, v]) => `${k} ${fmt(v, 1)} ms`).join(', ')}; reader calls ${Object.entries(s.edgestream.server.readerMs).map(([k, v]) => `${k} ${fmt(v, 1)} ms (${fmt(s.edgestream.server.readerQueries[k] ?? NaN, 2)} queries)`).join(', ')}`,
    `  edgestream serve's own tail: requests over 10 ms / over 50 ms ${Object.entries(s.edgestream.server.httpOver10Ms).map(([k, v]) => `${k} ${fmt(v * 100, 2)} % / ${fmt((s.edgestream.server.httpOver50Ms[k] ?? NaN) * 100, 2)} %`).join(', ')}; reader calls over 10 ms ${Object.entries(s.edgestream.server.readerOver10Ms).map(([k, v]) => `${k} ${fmt(v * 100, 2)} %`).join(', ')}`,
    `  CPU ms per op  edgestream: ${cpuLine(s.edgestream.cpuMsPerOp)}`,
    `                 raw:        ${cpuLine(s.raw.cpuMsPerOp)}`,
    ...(pg ? [`                 postgres:   ${cpuLine(pg.postgres.cpuMsPerOp)}`] : []),
    ...threadPoolLines(s.edgestream.cpuMsPerOpByThreadPool, s.raw.cpuMsPerOpByThreadPool),
    `  machine busy   edgestream blocks ${list(s.edgestream.machineBusyCores, 2)} cores; raw blocks ${list(s.raw.machineBusyCores, 2)} cores${pg ? `; postgres blocks ${list(pg.postgres.machineBusyCores, 2)} cores` : ''} (of ${s.cores})`,
    `  pipeline       processor log: ${r.pipeline.warnings} warnings, ${r.pipeline.errors} errors; repair topic ${r.pipeline.repairRecords} records, DLQ ${r.pipeline.dlqRecords}`,
    ...r.pipeline.problems.slice(0, 5).map((p) => `                 ${p.count} × ${p.level} "${p.msg}"`),
    `  Cassandra ops per op (own keyspace): edgestream ${s.edgestream.cassandraReadsPerOp} reads, ${s.edgestream.cassandraWritesPerOp} partition writes; raw ${s.raw.cassandraReadsPerOp} reads, ${s.raw.cassandraWritesPerOp} partition writes`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Where each server's CPU per op went, by thread pool (the eight largest), edgestream beside raw. */
function threadPoolLines(edgestream: Record<string, Record<string, number>>, raw: Record<string, Record<string, number>>): string[] {
  const top = (pools: Record<string, number> | undefined) => Object.entries(pools ?? {}).filter(([, ms]) => ms >= 0.001).slice(0, 8).map(([pool, ms]) => `${pool} ${fmt(ms, 3)}`).join(', ') || '—';
  return Object.keys(edgestream).map((server) => `  ${server} CPU ms per op by thread pool: edgestream ${top(edgestream[server])}; raw ${top(raw[server])}`);
}
