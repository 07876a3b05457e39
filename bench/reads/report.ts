import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { acrossRepeats, fmt, round, type AcrossRepeats } from '../ingest/stats.ts';
import type { codeVersion, collectVersions, machine } from '../shared/benchEnvironment.ts';
import type { PhaseCpu } from '../shared/measuredCpu.ts';
import type { StackLabel } from '../shared/benchStack.ts';
import { resultHeader } from '../shared/resultHeader.ts';
import type { QuietWait } from '../../sinks/cassandra/index.ts';
import type { LoadResult } from '../wide/loadPhase.ts';
import type { SplitPhaseResult } from '../wide/splitPhase.ts';
import type { ReadsBenchArgs } from './args.ts';
import type { HttpRepeat } from './fixedRateComparison.ts';
import type { HttpScan } from './httpScan.ts';
import type { PageRepeat } from './pageComparison.ts';
import type { ScanRepeat } from './scanComparison.ts';
import type { TraversalRepeat } from './traversalComparison.ts';

/** The targets of issue 12 item 4, printed next to the figures. */
export const TARGETS = { pageP99VsRaw: 1.5, pageP50VsRaw: 2, scanRowsPerSecondVsRaw: 0.5, traversalP99Ms: 50 } as const;

type WithCpu<T> = T & { readonly cpu: PhaseCpu };

/** What one phase (before or after the split) measured, every repeat. */
export interface PhaseFigures {
  readonly quietWaits: Readonly<Record<string, QuietWait>>;
  readonly pages: readonly WithCpu<PageRepeat>[];
  /** Before the split: first reads of popular Zipf users' newest pages (nothing to guess from). */
  readonly coldPages?: readonly WithCpu<PageRepeat>[];
  readonly scans: readonly WithCpu<ScanRepeat>[];
  readonly fixedRate: readonly WithCpu<HttpRepeat>[];
  readonly httpScan: WithCpu<HttpScan>;
  readonly traversal?: readonly WithCpu<TraversalRepeat>[];
}

export interface BenchFigures {
  readonly load: { readonly celebrity: LoadResult; readonly zipf: LoadResult };
  readonly before: PhaseFigures;
  readonly split: WithCpu<SplitPhaseResult>;
  readonly after: PhaseFigures;
}

const METHOD = {
  load: 'straight to Cassandra with store.mutateMany (bench/wide/loadPhase), rows from the real fan-out processor (createFanOutProcessor(config).process) with the reads the store would answer (none: every edge is new): the celebrity\'s --followers follows (only follows_in and follows_in_recent, which its in-neighbour reads touch), and the Zipf graph (--users users, each following --follows-per-user distinct others drawn by Zipf rank, exponent --zipf-exponent) with every write the fan-out makes. Not through Kafka.',
  reader: 'what `edgestream serve` builds (cli/openReader): reads/createEdgeReader over reads/split/createServingPartitions with read counters on, in this process; a fresh one after the split',
  raw: 'a cassandra-driver Client in this process, prepared statements on the tables edgestream wrote: newest page = SELECT key FROM follows_in_recent WHERE id=? LIMIT ? (one slice); full scan = SELECT key FROM follows_in_recent WHERE id=? paged with fetchSize --raw-fetch-size; traversal = SELECT key, value FROM follows_<dir> WHERE id=? [AND key > ?] LIMIT ? per frontier vertex, breadth first, the same cap, page size and concurrency as the reader\'s traversal, and (raw batched) the same with a frontier of more than one vertex first read in edgestream\'s batches: ceil(n/64) even batches of SELECT id, key, value FROM follows_<dir> WHERE id IN ? PER PARTITION LIMIT ? LIMIT ? (min(page size, 128, what the cap wants) per partition, unpaged) started in edgestream\'s waves (2 batches, then only while those in flight are not expected to fill the cap at the new vertices per id seen), a partition with a full first page then paged on its own. After the split the raw reads still read the original partitions (the split leaves them in place): the physical limit of one slice or one paged partition.',
  quiet: 'before every comparison the bench waits until Cassandra has had no flush or compaction active or pending for 3 s (sinks/cassandra/waitForQuietCassandra), at most 180 s',
  newestPage: 'per repeat, --samples triples of calls one at a time (edgestream, the raw slice, the raw validated page), the order rotating per sample; 5 warm-up triples; the three pages must hold the same peers; wall time per call, nearest-rank quantiles. The index is exact (written through the pipeline), so the reader takes the slice\'s entries as they are: one query. Raw validated (the floor of the validated index this replaced, kept for comparison; not the store\'s limit) = the same slice and one SELECT key, value FROM follows_in WHERE id=? AND key IN ? of its peers (ACTIVE at the entry\'s time), the previous page\'s peers read while the slice is in flight',
  coldNewestPage: 'before the split, per repeat, the newest page of --cold-pages distinct Zipf users (ranks repeat·n … repeat·n + n − 1, the most followed), each read once by each side (edgestream, raw slice, raw validated), the order rotating per vertex: pages no side read before (for raw validated: slice and validation one after the other)',
  fullScan: 'per repeat, the reader\'s newest-first scan in pages of --scan-page through cursors (bench/wide/fullScan) and the raw paged read, which goes first alternating per repeat; both keep a SHA-256 of (peer, time) in order, which must be equal; reader RSS: full GC, baseline, VmHWM reset via /proc/self/clear_refs, VmHWM after',
  traversal: 'per repeat, from each of --starts Zipf-drawn start vertices (the same list every repeat), reader.traverse(start, --hops of follows, { perHopCap: --hop-cap, concurrency: reads.traversal.concurrencyPerReplicaSet, pageSize: min(cap, 1000) }) and the two raw breadth-first reads (per partition, batched), the order of the three rotating per start; queries per hop from the result\'s per-hop stats and each raw side\'s count',
  fixedRate: 'per repeat, three open-loop blocks of --http-seconds at --rate requests/s with at most --connections in flight (bench/reads/openLoop: latency from when a request was due, so queueing counts): GET /v1/vertices/<celebrity>/in/follows?limit=<page> on a real `edgestream serve` child process (its own node, the run\'s config, per-address rate limit raised) over keep-alive connections, the same reader.in call on the library in this process, and the raw slice; block order rotates per repeat; overhead = HTTP minus library at the same offered load',
  httpScan: 'once per phase, every in-neighbour over HTTP following cursors (pages of --scan-page), one request at a time; the server\'s RSS: VmHWM of the child after resetting it (/proc/<pid>/clear_refs), else 50 ms samples',
  split: 'the read counters of the "before" scans publish WidePartitionDetected (wide.thresholdRows = min(100 000, followers/2)); bench/wide/splitPhase then runs createEdgePipeline({ stages: ["plan","split","verify"] }) in this process until each wide_rows record is COMPLETED or FAILED',
};

const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 2) : Number.NaN);
const over = <T>(xs: readonly T[], f: (x: T) => number): AcrossRepeats => acrossRepeats(xs.map(f));

function summarisePhase(p: PhaseFigures) {
  return {
    newestPage: {
      edgestream: { p50Ms: over(p.pages, (r) => r.edgestream.p50Ms), p99Ms: over(p.pages, (r) => r.edgestream.p99Ms) },
      raw: { p50Ms: over(p.pages, (r) => r.raw.p50Ms), p99Ms: over(p.pages, (r) => r.raw.p99Ms) },
      p50_vs_raw: over(p.pages, (r) => ratio(r.edgestream.p50Ms, r.raw.p50Ms)),
      p99_vs_raw: over(p.pages, (r) => ratio(r.edgestream.p99Ms, r.raw.p99Ms)),
      rawValidated: { p50Ms: over(p.pages, (r) => r.rawValidated.p50Ms), p99Ms: over(p.pages, (r) => r.rawValidated.p99Ms) },
      p50_vs_raw_validated: over(p.pages, (r) => ratio(r.edgestream.p50Ms, r.rawValidated.p50Ms)),
      raw_validated_p50_vs_raw: over(p.pages, (r) => ratio(r.rawValidated.p50Ms, r.raw.p50Ms)),
    },
    ...(p.coldPages
      ? {
          coldNewestPage: {
            edgestream: { p50Ms: over(p.coldPages, (r) => r.edgestream.p50Ms), p99Ms: over(p.coldPages, (r) => r.edgestream.p99Ms) },
            raw: { p50Ms: over(p.coldPages, (r) => r.raw.p50Ms), p99Ms: over(p.coldPages, (r) => r.raw.p99Ms) },
            p50_vs_raw: over(p.coldPages, (r) => ratio(r.edgestream.p50Ms, r.raw.p50Ms)),
            p99_vs_raw: over(p.coldPages, (r) => ratio(r.edgestream.p99Ms, r.raw.p99Ms)),
            rawValidated: { p50Ms: over(p.coldPages, (r) => r.rawValidated.p50Ms), p99Ms: over(p.coldPages, (r) => r.rawValidated.p99Ms) },
            p50_vs_raw_validated: over(p.coldPages, (r) => ratio(r.edgestream.p50Ms, r.rawValidated.p50Ms)),
            raw_validated_p50_vs_raw: over(p.coldPages, (r) => ratio(r.rawValidated.p50Ms, r.raw.p50Ms)),
          },
        }
      : {}),
    fullScan: {
      edgestreamRowsPerSecond: over(p.scans, (r) => r.edgestream.itemsPerSecond),
      rawRowsPerSecond: over(p.scans, (r) => r.raw.itemsPerSecond),
      rows_per_second_vs_raw: over(p.scans, (r) => ratio(r.edgestream.itemsPerSecond, r.raw.itemsPerSecond)),
      readerPeakRssMiB: over(p.scans, (r) => r.edgestream.memory.peakRssMiB),
      readerRssGrowthMiB: over(p.scans, (r) => r.edgestream.memory.growthMiB),
      rawPeakRssMiB: over(p.scans, (r) => r.raw.memory.peakRssMiB),
    },
    fixedRate: {
      http: { p50Ms: over(p.fixedRate, (r) => r.http.p50Ms), p99Ms: over(p.fixedRate, (r) => r.http.p99Ms), achievedRate: over(p.fixedRate, (r) => r.http.achievedRate), errors: p.fixedRate.reduce((a, r) => a + r.http.errors, 0) },
      edgestream: { p50Ms: over(p.fixedRate, (r) => r.edgestream.p50Ms), p99Ms: over(p.fixedRate, (r) => r.edgestream.p99Ms), achievedRate: over(p.fixedRate, (r) => r.edgestream.achievedRate) },
      raw: { p50Ms: over(p.fixedRate, (r) => r.raw.p50Ms), p99Ms: over(p.fixedRate, (r) => r.raw.p99Ms), achievedRate: over(p.fixedRate, (r) => r.raw.achievedRate) },
      /** A block whose completions fell below 95% of the offered rate was saturated: its latencies are mostly queueing. */
      saturatedBlocks: p.fixedRate.flatMap((r, i) => (['http', 'edgestream', 'raw'] as const).filter((side) => r[side].achievedRate < 0.95 * r[side].offeredRate).map((side) => `${side}#${i + 1}`)),
      serverOverheadP50Ms: over(p.fixedRate, (r) => r.http.p50Ms - r.edgestream.p50Ms),
      serverOverheadP99Ms: over(p.fixedRate, (r) => r.http.p99Ms - r.edgestream.p99Ms),
      http_p50_vs_raw: over(p.fixedRate, (r) => ratio(r.http.p50Ms, r.raw.p50Ms)),
      http_p99_vs_raw: over(p.fixedRate, (r) => ratio(r.http.p99Ms, r.raw.p99Ms)),
    },
    httpScan: { rowsPerSecond: p.httpScan.itemsPerSecond, serverPeakRssMiB: p.httpScan.server.peakRssMiB, serverBaselineRssMiB: p.httpScan.server.baselineRssMiB },
    ...(p.traversal
      ? {
          traversal: {
            edgestream: { p50Ms: over(p.traversal, (r) => r.edgestream.p50Ms), p99Ms: over(p.traversal, (r) => r.edgestream.p99Ms) },
            raw: { p50Ms: over(p.traversal, (r) => r.raw.p50Ms), p99Ms: over(p.traversal, (r) => r.raw.p99Ms) },
            rawBatched: { p50Ms: over(p.traversal, (r) => r.rawBatched.p50Ms), p99Ms: over(p.traversal, (r) => r.rawBatched.p99Ms) },
            p50_vs_raw: over(p.traversal, (r) => ratio(r.edgestream.p50Ms, r.raw.p50Ms)),
            p99_vs_raw: over(p.traversal, (r) => ratio(r.edgestream.p99Ms, r.raw.p99Ms)),
            p50_vs_raw_batched: over(p.traversal, (r) => ratio(r.edgestream.p50Ms, r.rawBatched.p50Ms)),
            p99_vs_raw_batched: over(p.traversal, (r) => ratio(r.edgestream.p99Ms, r.rawBatched.p99Ms)),
            meanQueriesPerHop: {
              edgestream: p.traversal[0]?.edgestream.hops.map((h) => h.meanQueries) ?? [],
              raw: p.traversal[0]?.raw.hops.map((h) => h.meanQueries) ?? [],
              rawBatched: p.traversal[0]?.rawBatched.hops.map((h) => h.meanQueries) ?? [],
            },
          },
        }
      : {}),
    otherProcessesCores: {
      pages: p.pages.map((r) => r.cpu.otherCores),
      scans: p.scans.map((r) => r.cpu.otherCores),
      fixedRate: p.fixedRate.map((r) => r.cpu.otherCores),
      ...(p.traversal ? { traversal: p.traversal.map((r) => r.cpu.otherCores) } : {}),
    },
  };
}

type PhaseSummary = ReturnType<typeof summarisePhase>;

const targetsOf = (s: PhaseSummary) => ({
  newestPageP99VsRaw: { target: TARGETS.pageP99VsRaw, median: s.newestPage.p99_vs_raw.median, met: s.newestPage.p99_vs_raw.median <= TARGETS.pageP99VsRaw },
  newestPageP50VsRaw: { target: TARGETS.pageP50VsRaw, median: s.newestPage.p50_vs_raw.median, met: s.newestPage.p50_vs_raw.median <= TARGETS.pageP50VsRaw },
  fullScanRowsPerSecondVsRaw: { target: TARGETS.scanRowsPerSecondVsRaw, median: s.fullScan.rows_per_second_vs_raw.median, met: s.fullScan.rows_per_second_vs_raw.median >= TARGETS.scanRowsPerSecondVsRaw },
  ...(s.traversal ? { traversalP99Ms: { target: TARGETS.traversalP99Ms, median: s.traversal.edgestream.p99Ms.median, met: s.traversal.edgestream.p99Ms.median <= TARGETS.traversalP99Ms } } : {}),
});

export function buildResult(o: {
  stack: StackLabel;
  args: ReadsBenchArgs;
  started: Date;
  versions: Awaited<ReturnType<typeof collectVersions>>;
  code: ReturnType<typeof codeVersion>;
  config: EdgestreamConfig;
  counts: { celebrity: string; followers: number; users: number; zipfEdges: number; starts: number };
  figures: BenchFigures;
  machine: ReturnType<typeof machine>;
}) {
  const before = summarisePhase(o.figures.before);
  const after = summarisePhase(o.figures.after);
  return {
    ...resultHeader({ benchmark: 'bench:reads', stack: o.stack, started: o.started, machine: o.machine, versions: o.versions, code: o.code, method: METHOD, args: o.args, config: o.config }),
    counts: o.counts,
    load: o.figures.load,
    split: { seconds: o.figures.split.seconds, partitions: o.figures.split.partitions.map((p) => ({ namespace: p.namespace, partitionId: p.partitionId, outcome: p.outcome, rows: p.record?.rows, buckets: p.record?.buckets, strategy: p.record?.strategy, seconds: p.seconds })), cpu: o.figures.split.cpu },
    summary: { cores: o.machine.cores, before, after, targets: { before: targetsOf(before), after: targetsOf(after) } },
    figures: { before: o.figures.before, after: o.figures.after },
  };
}

export type ReadsBenchResult = ReturnType<typeof buildResult>;

const list = (a: AcrossRepeats, unit = '', digits = 2) => `${a.repeats.map((x) => fmt(x, digits)).join(' / ')}${unit} → median ${fmt(a.median, digits)}${unit} (spread ${a.spreadPct}%)`;
const mark = (met: boolean) => (met ? 'met' : 'MISSED');

export function printSummary(r: ReadsBenchResult): void {
  const lines = [
    '',
    `bench:reads — ${r.summary.cores} cores (load average at the end ${r.machine.loadAverage.join(' ')}); code ${r.code.commit.slice(0, 12)}${r.code.cleanTree ? '' : ' (tree NOT clean)'}`,
    ...(r.stack ? [`  stack ${r.stack.summary}`] : []),
    `  celebrity ${r.counts.celebrity}: ${fmt(r.counts.followers)} followers; Zipf graph ${fmt(r.counts.users)} users, ${fmt(r.counts.zipfEdges)} follows; loaded in ${r.load.celebrity.seconds} + ${r.load.zipf.seconds} s (fan-out rows, mutateMany)`,
    `  split: ${r.split.partitions.map((p) => `${p.namespace}[${p.partitionId}] ${p.outcome} (${fmt(p.rows ?? 0)} rows → ${p.buckets ?? '-'} ${p.strategy ?? ''})`).join(', ')} in ${r.split.seconds} s`,
    `  every figure: repeat 1 / 2 / … → median (spread = (max − min)/median)`,
  ];
  for (const phase of ['before', 'after'] as const) {
    const s = r.summary[phase];
    const t = r.summary.targets[phase];
    lines.push(
      `  ── ${phase} the split ──`,
      `  newest-${r.args.pageLimit} page, ${r.args.samples} samples per side and repeat (interleaved)`,
      `    edgestream p50 ${list(s.newestPage.edgestream.p50Ms, ' ms')}; p99 ${list(s.newestPage.edgestream.p99Ms, ' ms')}`,
      `    raw        p50 ${list(s.newestPage.raw.p50Ms, ' ms')}; p99 ${list(s.newestPage.raw.p99Ms, ' ms')}`,
      `    p50_vs_raw ${list(s.newestPage.p50_vs_raw)} — target ≤ ${TARGETS.pageP50VsRaw}: ${mark(t.newestPageP50VsRaw.met)}`,
      `    p99_vs_raw ${list(s.newestPage.p99_vs_raw)} — target ≤ ${TARGETS.pageP99VsRaw}: ${mark(t.newestPageP99VsRaw.met)}`,
      `    raw validated (slice + key IN of its links) p50 ${list(s.newestPage.rawValidated.p50Ms, ' ms')}; p99 ${list(s.newestPage.rawValidated.p99Ms, ' ms')}: ${list(s.newestPage.raw_validated_p50_vs_raw)} × raw; edgestream p50_vs_raw_validated ${list(s.newestPage.p50_vs_raw_validated)}`,
      ...(s.coldNewestPage
        ? [
            `  first read of a newest-${r.args.pageLimit} page, ${r.args.coldPages} popular Zipf users per side and repeat (nothing to guess from)`,
            `    edgestream p50 ${list(s.coldNewestPage.edgestream.p50Ms, ' ms')}; p99 ${list(s.coldNewestPage.edgestream.p99Ms, ' ms')}`,
            `    raw        p50 ${list(s.coldNewestPage.raw.p50Ms, ' ms')}; p99 ${list(s.coldNewestPage.raw.p99Ms, ' ms')}`,
            `    p50_vs_raw ${list(s.coldNewestPage.p50_vs_raw)}; p99_vs_raw ${list(s.coldNewestPage.p99_vs_raw)}`,
            `    raw validated p50 ${list(s.coldNewestPage.rawValidated.p50Ms, ' ms')}: ${list(s.coldNewestPage.raw_validated_p50_vs_raw)} × raw; edgestream p50_vs_raw_validated ${list(s.coldNewestPage.p50_vs_raw_validated)}`,
          ]
        : []),
      `  full newest-first scan (edgestream pages of ${r.args.scanPage}, raw fetchSize ${r.args.rawFetchSize})`,
      `    edgestream rows/s ${list(s.fullScan.edgestreamRowsPerSecond, '', 0)}`,
      `    raw        rows/s ${list(s.fullScan.rawRowsPerSecond, '', 0)}`,
      `    rows_per_second_vs_raw ${list(s.fullScan.rows_per_second_vs_raw)} — target ≥ ${TARGETS.scanRowsPerSecondVsRaw}: ${mark(t.fullScanRowsPerSecondVsRaw.met)}`,
      `    reader peak RSS ${list(s.fullScan.readerPeakRssMiB, ' MiB', 1)} (growth ${list(s.fullScan.readerRssGrowthMiB, ' MiB', 1)}); raw scan peak ${list(s.fullScan.rawPeakRssMiB, ' MiB', 1)}`,
    );
    if (s.traversal && t.traversalP99Ms) {
      lines.push(
        `  ${r.args.hops.length}-hop traversal (${r.args.hops.join(', ')} of follows, cap ${r.args.hopCap}/hop) from ${fmt(r.counts.starts)} Zipf start vertices per repeat (interleaved)`,
        `    edgestream p50 ${list(s.traversal.edgestream.p50Ms, ' ms')}; p99 ${list(s.traversal.edgestream.p99Ms, ' ms')} — target p99 ≤ ${TARGETS.traversalP99Ms} ms: ${mark(t.traversalP99Ms.met)}`,
        `    raw        p50 ${list(s.traversal.raw.p50Ms, ' ms')}; p99 ${list(s.traversal.raw.p99Ms, ' ms')} (a query per partition page)`,
        `    raw batched p50 ${list(s.traversal.rawBatched.p50Ms, ' ms')}; p99 ${list(s.traversal.rawBatched.p99Ms, ' ms')} (edgestream's id IN ? PER PARTITION LIMIT ? batches, in its waves)`,
        `    p50_vs_raw ${list(s.traversal.p50_vs_raw)}; p99_vs_raw ${list(s.traversal.p99_vs_raw)}`,
        `    p50_vs_raw_batched ${list(s.traversal.p50_vs_raw_batched)}; p99_vs_raw_batched ${list(s.traversal.p99_vs_raw_batched)}`,
        `    mean queries per hop (repeat 1): edgestream ${s.traversal.meanQueriesPerHop.edgestream.join(', ')}; raw ${s.traversal.meanQueriesPerHop.raw.join(', ')}; raw batched ${s.traversal.meanQueriesPerHop.rawBatched.join(', ')}`,
      );
    }
    lines.push(
      `  newest page at a fixed ${r.args.rate}/s offered, ≤ ${r.args.connections} in flight, ${r.args.httpSeconds} s blocks (open loop)`,
      `    HTTP (edgestream serve) p50 ${list(s.fixedRate.http.p50Ms, ' ms')}; p99 ${list(s.fixedRate.http.p99Ms, ' ms')}; achieved ${list(s.fixedRate.http.achievedRate, '/s', 1)}; ${s.fixedRate.http.errors} errors`,
      `    library                 p50 ${list(s.fixedRate.edgestream.p50Ms, ' ms')}; p99 ${list(s.fixedRate.edgestream.p99Ms, ' ms')}; achieved ${list(s.fixedRate.edgestream.achievedRate, '/s', 1)}`,
      `    raw                     p50 ${list(s.fixedRate.raw.p50Ms, ' ms')}; p99 ${list(s.fixedRate.raw.p99Ms, ' ms')}; achieved ${list(s.fixedRate.raw.achievedRate, '/s', 1)}`,
      ...(s.fixedRate.saturatedBlocks.length > 0 ? [`    SATURATED (completed < 95% of the offered rate; latency is mostly queueing): ${s.fixedRate.saturatedBlocks.join(', ')}`] : []),
      `    server overhead (HTTP − library) p50 ${list(s.fixedRate.serverOverheadP50Ms, ' ms')}; p99 ${list(s.fixedRate.serverOverheadP99Ms, ' ms')}`,
      `    http_p50_vs_raw ${list(s.fixedRate.http_p50_vs_raw)}; http_p99_vs_raw ${list(s.fixedRate.http_p99_vs_raw)}`,
      `  full scan over HTTP: ${fmt(s.httpScan.rowsPerSecond)} rows/s; server RSS ${s.httpScan.serverBaselineRssMiB} → peak ${s.httpScan.serverPeakRssMiB} MiB`,
      `  other processes' cores per repeat: pages ${s.otherProcessesCores.pages.join(' ')}, scans ${s.otherProcessesCores.scans.join(' ')}, fixed rate ${s.otherProcessesCores.fixedRate.join(' ')}${s.otherProcessesCores.traversal ? `, traversal ${s.otherProcessesCores.traversal.join(' ')}` : ''}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
