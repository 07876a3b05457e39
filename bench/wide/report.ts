import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { splitMirrorBarrierMs } from '../../schemas/config/edgestreamConfig.ts';
import type { CpuReport } from '../ingest/procStats.ts';
import { fmt, round } from '../ingest/stats.ts';
import type { WideBenchArgs } from './args.ts';
import type { CheckCostAtSize } from '../directory/checkCostAtSizes.ts';
import type { BloomCost } from './bloomCost.ts';
import type { QuietWait } from '../../sinks/cassandra/index.ts';
import type { Celebrity } from './celebrityWorkload.ts';
import type { ReadCounts } from './countingStore.ts';
import type { codeVersion, collectVersions, machine } from '../shared/benchEnvironment.ts';
import type { StackLabel } from '../shared/benchStack.ts';
import { resultHeader } from '../shared/resultHeader.ts';
import type { FullScan } from './fullScan.ts';
import type { LoadResult } from './loadPhase.ts';
import type { PageLatency } from './pageLatency.ts';
import type { SplitPhaseResult } from './splitPhase.ts';
import type { Detection } from './widePublisher.ts';

/** Newest-page p99 after the split must stay within this (the target printed next to the figure). */
export const TARGET_PAGE_P99_MS = 20;

type Pair<T> = { readonly A: T; readonly B: T };
/** CPU during a measurement: this process, the servers, and what other processes on the machine used meanwhile. */
export type MeasuredCpu = { readonly cpu: CpuReport & { readonly otherCores: number } };

/** Everything the phases measured. */
export interface PhaseFigures {
  readonly celebrities: { readonly A: Celebrity; readonly B: Celebrity; readonly removedB: number; readonly liveB: number };
  readonly load: { readonly A: LoadResult; readonly BFollows: LoadResult; readonly BUnfollows: LoadResult };
  readonly before: { readonly quietWait: QuietWait; readonly pages: Pair<PageLatency & MeasuredCpu>; readonly scans: Pair<FullScan & MeasuredCpu>; readonly reads: ReadCounts };
  readonly detections: readonly Detection[];
  /** `reads`: what the chain read per namespace (slices, cells, point reads) through a counting store. */
  readonly split: SplitPhaseResult & MeasuredCpu & { readonly reads: ReadCounts };
  readonly after: { readonly quietWait: QuietWait; readonly pages: Pair<PageLatency & MeasuredCpu>; readonly scans: Pair<FullScan & MeasuredCpu>; readonly reads: ReadCounts; readonly fallbacks: number };
  readonly bloom: BloomCost;
  /** The same check with 4, 10 000 and 1 000 000 records in the directory (bench/directory/checkCostAtSizes). */
  readonly bloomAtSizes: readonly CheckCostAtSize[];
}

const METHOD = {
  load:
    'celebrity A: --links ADD_EDGEs (distinct followers, 1 ms apart); celebrity B: --churn-links ADD_EDGEs, then a REMOVE_EDGE for a seeded uniform --churn-remove-ratio share of them (every unfollow after every follow). Rows come from the real fan-out processor (createFanOutProcessor(config).process) with empty reads — for a REMOVE_EDGE the forward link of its follow, so the processor deletes the superseded T_in_recent entry (a row tombstone). Only follows_in and follows_in_recent are written (in-neighbour reads touch nothing else), with store.mutateMany straight to Cassandra, not through Kafka.',
  quiet: 'before each measurement phase (after the load, after the split) the bench waits until Cassandra has had no flush or compaction active or pending for 3 s (system_views.thread_pools), at most 180 s',
  reader:
    'reads/createEdgeReader over reads/split/createServingPartitions (split-aware PartitionReader; Bloom filter loaded by start()) on the bench store, in this process. Before the split no record exists, so every read goes to the original partition.',
  newestPage:
    'reader.in("follows", celebrity, { limit: --page-limit }): a slice of follows_in_recent plus one validation point read of follows_in per entry; --samples sequential calls after 5 unmeasured warm-up calls; wall time per call; nearest-rank quantiles',
  fullScan:
    'every in-neighbour newest first in pages of --scan-page via the reader cursors, keeping only a count and a digest of (peer, time); the digest must match before and after the split',
  memory:
    'this (reader) process: full GC, RSS baseline, VmHWM reset via /proc/self/clear_refs, VmHWM after the scan (peak; 50 ms rss samples as fallback/cross-check), RSS at every 10% of the scan',
  detection:
    'createReadCounters on the reader of the "before" full scans (not on the newest-page samples); wide.thresholdRows = half of the smaller celebrity\'s live links (≤ 100 000) so one full scan crosses it; onWide publishes WidePartitionDetected to <prefix>wide-partitions keyed namespace␀id. Both follows_in_recent (pages) and follows_in (validation point reads) of each celebrity cross it.',
  split:
    'createEdgePipeline({ stages: ["plan","split","verify"] }) in this process after the "before" figures, so a detection waits in the topic until then (reported separately); wide_rows polled every 250 ms until COMPLETED or FAILED; plan/barrier/copy/verify from the record timestamps (plan start = the planner\'s "planner: scanning" log line, else the PLANNING record\'s updatedAt as polled; verify start = the verification frontier); the chain\'s store is wrapped to count the cells it read per namespace',
  bloom: 'SplitDirectory.mightHaveRecord over --bloom-calls calls on 4 096 never-split (namespace, id) pairs cycled, then on the split partitions, after a JIT warm-up; process.hrtime; bloomAtSizes: the same timing on directories loaded with that many never-touched records',
};

const ratio = (after: number, before: number) => (before > 0 ? round(after / before, 2) : Number.NaN);

export function buildResult(o: {
  stack: StackLabel;
  args: WideBenchArgs;
  started: Date;
  versions: Awaited<ReturnType<typeof collectVersions>>;
  code: ReturnType<typeof codeVersion>;
  config: EdgestreamConfig;
  figures: PhaseFigures;
  cores: number;
  machine: ReturnType<typeof machine>;
}) {
  const f = o.figures;
  const { before, after } = f;
  const pageRatios = (k: 'A' | 'B') => ({ p50: ratio(after.pages[k].p50Ms, before.pages[k].p50Ms), p99: ratio(after.pages[k].p99Ms, before.pages[k].p99Ms) });
  const scanRatios = (k: 'A' | 'B') => ({ seconds: ratio(after.scans[k].seconds, before.scans[k].seconds), peakRss: ratio(after.scans[k].memory.peakRssMiB, before.scans[k].memory.peakRssMiB) });
  const celebrity = (c: Celebrity, live: number, removed: number) => ({ id: c.id, follows: c.links, removed, liveLinks: live });
  const header = resultHeader({ benchmark: 'bench:wide', stack: o.stack, started: o.started, machine: o.machine, versions: o.versions, code: o.code, method: METHOD, args: o.args, config: o.config });
  return {
    ...header,
    config: { ...header.config, splitMirrorBarrierMs: splitMirrorBarrierMs(o.config) },
    counts: {
      A: celebrity(f.celebrities.A, f.celebrities.A.links, 0),
      B: celebrity(f.celebrities.B, f.celebrities.liveB, f.celebrities.removedB),
      cellsWritten: f.load.A.additions + f.load.BFollows.additions + f.load.BUnfollows.additions,
      rowTombstonesWritten: f.load.BUnfollows.deletions,
    },
    load: f.load,
    before: f.before,
    detections: f.detections,
    split: f.split,
    after: f.after,
    bloom: f.bloom,
    bloomAtSizes: f.bloomAtSizes,
    ratios: { pages: { A: pageRatios('A'), B: pageRatios('B') }, scans: { A: scanRatios('A'), B: scanRatios('B') } },
    summary: {
      cores: o.cores,
      medians: {
        newestPageMs: { before: { A: before.pages.A.p50Ms, B: before.pages.B.p50Ms }, after: { A: after.pages.A.p50Ms, B: after.pages.B.p50Ms } },
        scanPageMs: { before: { A: before.scans.A.pageP50Ms, B: before.scans.B.pageP50Ms }, after: { A: after.scans.A.pageP50Ms, B: after.scans.B.pageP50Ms } },
      },
      newestPageP99Ms: { before: { A: before.pages.A.p99Ms, B: before.pages.B.p99Ms }, after: { A: after.pages.A.p99Ms, B: after.pages.B.p99Ms } },
      fullScanSeconds: { before: { A: before.scans.A.seconds, B: before.scans.B.seconds }, after: { A: after.scans.A.seconds, B: after.scans.B.seconds } },
      fullScanPeakRssMiB: {
        before: { A: before.scans.A.memory.peakRssMiB, B: before.scans.B.memory.peakRssMiB },
        after: { A: after.scans.A.memory.peakRssMiB, B: after.scans.B.memory.peakRssMiB },
      },
      fullScanRssGrowthMiB: {
        before: { A: before.scans.A.memory.growthMiB, B: before.scans.B.memory.growthMiB },
        after: { A: after.scans.A.memory.growthMiB, B: after.scans.B.memory.growthMiB },
      },
      sameNeighboursBeforeAndAfter: { A: before.scans.A.digest === after.scans.A.digest, B: before.scans.B.digest === after.scans.B.digest },
      detectionToCompletedSeconds: Object.fromEntries(f.split.partitions.map((p) => [`${p.namespace}[${p.partitionId}]`, p.seconds.detectionToCompleted ?? null])),
      chainStartToCompletedSeconds: Object.fromEntries(f.split.partitions.map((p) => [`${p.namespace}[${p.partitionId}]`, p.seconds.chainStartToCompleted ?? null])),
      bloomNsPerCall: { miss: f.bloom.missNsPerCall, hit: f.bloom.hitNsPerCall },
      bloomFilterBits: f.bloom.filterBits,
      bloomMissNsPerCallAtRecords: Object.fromEntries(f.bloomAtSizes.map((c) => [c.records, c.missNsPerCall])),
      target: { newestPageP99MsAfterSplit: TARGET_PAGE_P99_MS, met: { A: after.pages.A.p99Ms <= TARGET_PAGE_P99_MS, B: after.pages.B.p99Ms <= TARGET_PAGE_P99_MS } },
    },
  };
}

export type WideBenchResult = ReturnType<typeof buildResult>;

const readsOfChain = (counts: ReadCounts) =>
  Object.entries(counts)
    .filter(([ns]) => !ns.startsWith('wide_'))
    .map(([ns, c]) => `${ns} ${fmt(c.cells)}`)
    .join(', ');

const rssSeries = (scan: FullScan) =>
  scan.memory.checkpoints
    .filter((c) => c.at.endsWith('%'))
    .map((c) => Math.round(c.rssMiB))
    .join(' ');

export function printSummary(r: WideBenchResult): void {
  const s = r.summary;
  const b = r.before;
  const a = r.after;
  const target = (ms: number) => `${ms <= TARGET_PAGE_P99_MS ? 'meets' : 'MISSES'} the target p99 ≤ ${TARGET_PAGE_P99_MS} ms`;
  const page = (k: 'A' | 'B') =>
    `${k}  before p50 ${b.pages[k].p50Ms} / p99 ${b.pages[k].p99Ms} ms  →  after p50 ${a.pages[k].p50Ms} / p99 ${a.pages[k].p99Ms} ms  (after/before: p50 ${r.ratios.pages[k].p50}, p99 ${r.ratios.pages[k].p99}); after ${target(a.pages[k].p99Ms)}`;
  const scan = (k: 'A' | 'B') =>
    `${k}  ${fmt(a.scans[k].items)} neighbours: before ${b.scans[k].seconds} s (${fmt(b.scans[k].itemsPerSecond)}/s)  →  after ${a.scans[k].seconds} s (${fmt(a.scans[k].itemsPerSecond)}/s), after/before ${r.ratios.scans[k].seconds}; peak RSS ${b.scans[k].memory.peakRssMiB} MiB (+${b.scans[k].memory.growthMiB}) → ${a.scans[k].memory.peakRssMiB} MiB (+${a.scans[k].memory.growthMiB}); same neighbours: ${s.sameNeighboursBeforeAndAfter[k] ? 'yes' : 'NO'}`;
  const splitLines = r.split.partitions.map(
    (p) =>
      `${p.namespace}[${p.partitionId}] ${p.outcome}: ${p.seconds.detectionToCompleted ?? '-'} s (queued ${p.seconds.detectionToChainStart} s while the bench measured; chain ${p.seconds.chainStartToCompleted ?? '-'} s: plan ${p.seconds.plan ?? '?'}, PLANNED→copy ${p.seconds.plannedToCopy ?? '-'} (barrier + queue), copy ${p.seconds.copy ?? '-'}, SPLIT→verify ${p.seconds.copiedToVerify ?? '-'} (queue), verify ${p.seconds.verify ?? '-'}; ${fmt(p.record?.rows ?? 0)} rows → ${p.record?.buckets ?? '-'} ${p.record?.strategy ?? ''} buckets)`,
  );
  const readsOf = (counts: ReadCounts) =>
    Object.entries(counts)
      .filter(([ns]) => !ns.startsWith('wide_'))
      .map(([ns, c]) => `${ns} ${fmt(c.gets)} gets/${fmt(c.slices)} slices`)
      .join(', ');
  const lines = [
    '',
    `bench:wide — ${s.cores} cores; A ${fmt(r.counts.A.follows)} reverse links; B ${fmt(r.counts.B.follows)} follows, ${fmt(r.counts.B.removed)} removed (${fmt(r.counts.B.liveLinks)} live, ${fmt(r.counts.rowTombstonesWritten)} recent-index row tombstones)`,
    ...(r.stack ? [`  stack ${r.stack.summary}`] : []),
    `  load (follows_in + follows_in_recent only, mutateMany)   ${fmt(r.counts.cellsWritten)} cells + ${fmt(r.counts.rowTombstonesWritten)} tombstones; A ${r.load.A.seconds} s, B ${r.load.BFollows.seconds} + ${r.load.BUnfollows.seconds} s`,
    `  newest-${r.args.pageLimit} page (${r.args.samples} samples)`,
    `    ${page('A')}`,
    `    ${page('B')}`,
    `  full scan, pages of ${r.args.scanPage} (this process's RSS; growth over the pre-scan baseline)`,
    `    ${scan('A')}`,
    `    ${scan('B')}`,
    `    RSS of A's scan at 0,10,…,100%: before ${rssSeries(b.scans.A)}; after ${rssSeries(a.scans.A)} MiB`,
    `  detection → COMPLETED`,
    ...splitLines.map((l) => `    ${l}`),
    `  cells the chain read    ${readsOfChain(r.split.reads)}`,
    `  Bloom filter check      ${r.bloom.missNsPerCall} ns/call unsplit, ${r.bloom.hitNsPerCall} ns/call split (${fmt(r.bloom.calls)} calls); ${r.bloom.records} records in ${fmt(r.bloom.filterBits)} bits (${fmt(r.bloom.filterBytes)} bytes); ${r.bloom.falsePositives} false positives`,
    `  reads before            ${readsOf(b.reads)}`,
    `  reads after             ${readsOf(a.reads)}${a.fallbacks ? `; ${a.fallbacks} split reads fell back to the original` : ''}`,
    `  other processes' cores  before: pages A ${b.pages.A.cpu.otherCores}, B ${b.pages.B.cpu.otherCores}, scans A ${b.scans.A.cpu.otherCores}, B ${b.scans.B.cpu.otherCores}; split ${r.split.cpu.otherCores}; after: pages A ${a.pages.A.cpu.otherCores}, B ${a.pages.B.cpu.otherCores}, scans A ${a.scans.A.cpu.otherCores}, B ${a.scans.B.cpu.otherCores} (machine busy minus this process and the stack's servers)`,
    `  cores                   ${s.cores} (machine load average at the end ${r.machine.loadAverage.join(' ')})`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
