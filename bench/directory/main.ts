#!/usr/bin/env node
// bench:directory — the split directory at 4, 10 000 and 1 000 000 split partitions: the
// cost of one "might this partition be split?" check beside an exact in-memory Set (the least
// work a correct answer needs) and bloom-filters' default hashing (the directory before),
// interleaved and repeated; the filter's memory, bits per key and measured false-positive rate;
// the full reload and the change-log refresh from real Cassandra, each with the longest
// event-loop stall it causes. See bench/directory/README.md.
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import bloomFilters from 'bloom-filters';
import { edgestreamNamespaces, splittableNamespaces, WIDE_ROWS_LOG_NAMESPACE, WIDE_ROWS_NAMESPACE, WIDE_ROW_CHECKPOINTS_NAMESPACE, type WideRowRecord } from '../../sinks/namespaces/index.ts';
import { createCassandraStore } from '../../sinks/cassandra/index.ts';
import { createSplitDirectory, createWideRowRepository } from '../../sinks/wide/index.ts';
import { resolveStack } from '../../stack/resolveStack.ts';
import { parseEdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { createStatusLine } from '../ingest/progressLine.ts';
import { fmt, median, round } from '../ingest/stats.ts';
import { codeVersion, machine, REPO_ROOT } from '../shared/benchEnvironment.ts';
import { dropKeyspace } from '../shared/benchCleanup.ts';
import { timeMembershipChecks, type MembershipTiming } from '../wide/bloomCost.ts';
import { measureFalsePositiveRate } from './measureFalsePositiveRate.ts';
import { completedRecord, untouchedCompletedRecords, writeWideRows } from './seedWideRows.ts';

const FALSE_POSITIVE_RATE = 0.01;
const USAGE = `npm run bench:directory -- [--sizes 4,10000,1000000] [--calls 1000000] [--repeats 3] [--out bench/results/directory-latest.json]\n`;
const status = createStatusLine();
const say = (line: string) => status.log(line);

/** Records written through the repository (so logged) before each timed change-log refresh. */
const CHANGED_PER_REFRESH = 10;
/** Distinct never-split keys checked once each for the measured false-positive rate. */
const FPR_PROBES = 1_000_000;

interface SizeResult {
  readonly records: number;
  readonly filterBits: number;
  readonly filterBytes: number;
  /** Filter bits per record held (the filter is sized for 1.25 × the records of its full reload, so the log can add to it). */
  readonly bitsPerKey: number;
  /** Filter bits per key of the capacity it was sized for at the target rate. */
  readonly bitsPerKeyAtCapacity: number;
  /** Over FPR_PROBES distinct never-split keys (the timing loops cycle 4 096 and see few). */
  readonly measuredFalsePositiveRate: number;
  readonly targetFalsePositiveRate: number;
  /** Full reload (`rebuild`: every id of wide_rows) from Cassandra. */
  readonly reloadMs: number[];
  readonly reloadMaxEventLoopStallMs: number[];
  /** Change-log refresh (`refresh`) after CHANGED_PER_REFRESH records were written through the repository. */
  readonly refreshMs: number[];
  readonly refreshMaxEventLoopStallMs: number[];
  readonly directoryHeapMiB: number;
  readonly directory: MembershipTiming[];
  readonly exactSet: MembershipTiming[];
  readonly bloomFiltersDefaultHashing: MembershipTiming[];
  readonly medianMissNs: number;
  readonly medianHitNs: number;
  readonly missNs_vs_raw: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { sizes: { type: 'string', default: '4,10000,1000000' }, calls: { type: 'string', default: '1000000' }, repeats: { type: 'string', default: '3' }, out: { type: 'string', default: 'bench/results/directory-latest.json' }, help: { type: 'boolean', default: false } } });
  if (values.help) return void process.stdout.write(USAGE);
  const sizes = values.sizes.split(',').map((s) => positiveInt(s, '--sizes'));
  const calls = positiveInt(values.calls, '--calls');
  const repeats = positiveInt(values.repeats, '--repeats');
  const code = codeVersion();
  const config = parseEdgestreamConfig({ edgeTypes: [{ name: 'follows' }, { name: 'likes' }] }, 'bench:directory');
  const namespaces = [...splittableNamespaces(config.edgeTypes).keys()];
  say(`bench:directory — sizes ${sizes.map((n) => fmt(n)).join(', ')}, ${fmt(calls)} checks × ${repeats} repeats; ${machine().cores} cores, commit ${code.commit.slice(0, 7)}${code.dirtyOutsideBench.length ? ' (DIRTY)' : ''}`);

  const stack = await resolveStack({ log: (l) => say(`[stack] ${l}`) });
  const keyspace = `bench_dir_${Date.now().toString(36)}`;
  const store = await createCassandraStore({
    contactPoints: [...stack.endpoints.cassandraContactPoints],
    localDataCenter: stack.endpoints.cassandraLocalDc,
    keyspace,
    replication: { class: 'SimpleStrategy', replicationFactor: 1 },
    namespaces: edgestreamNamespaces(config).filter((n) => [WIDE_ROWS_NAMESPACE, WIDE_ROW_CHECKPOINTS_NAMESPACE, WIDE_ROWS_LOG_NAMESPACE].includes(n.name)),
  });
  const results: SizeResult[] = [];
  try {
    await store.init();
    const seeded: WideRowRecord[] = [];
    for (const size of sizes) {
      const more = untouchedCompletedRecords(namespaces, seeded.length, size, Date.now() * 1_000);
      await writeWideRows(store, more, (done) => status.update(`seeding wide_rows: ${fmt(seeded.length + done)} / ${fmt(size)}`));
      for (const r of more) seeded.push(r);
      say(`${fmt(size)} COMPLETED records in wide_rows`);
      results.push(await measureSize(createWideRowRepository(store), namespaces, seeded, calls, repeats));
      const r = results.at(-1) as SizeResult;
      say(`  check: ${r.medianMissNs} ns unsplit / ${r.medianHitNs} ns split (exact Set ${median(r.exactSet.map((t) => t.missNsPerCall))} ns, ratio ${r.missNs_vs_raw}; bloom-filters default hashing ${median(r.bloomFiltersDefaultHashing.map((t) => t.missNsPerCall))} ns); false positives ${median(r.directory.map((t) => t.falsePositiveRate))}`);
      say(`  filter ${fmt(r.filterBytes)} bytes, ${r.bitsPerKey} bits/record held (${r.bitsPerKeyAtCapacity} at the capacity it was sized for), measured false-positive rate ${r.measuredFalsePositiveRate} (target ${r.targetFalsePositiveRate}); directory heap ${r.directoryHeapMiB} MiB`);
      say(`  full reload ${r.reloadMs.join(' / ')} ms, longest event-loop stall ${r.reloadMaxEventLoopStallMs.join(' / ')} ms; change-log refresh (${CHANGED_PER_REFRESH} changed) ${r.refreshMs.join(' / ')} ms, longest stall ${r.refreshMaxEventLoopStallMs.join(' / ')} ms`);
    }
  } finally {
    await store.close();
    await dropKeyspace(stack.endpoints, keyspace).catch((e: unknown) => say(`drop ${keyspace}: ${String(e)}`));
    await stack.release();
  }
  const out = { bench: 'directory', startedAt: new Date().toISOString(), machine: machine(), code, node: process.version, calls, repeats, sizes: results };
  fs.writeFileSync(path.resolve(REPO_ROOT, values.out), `${JSON.stringify(out, null, 2)}\n`);
  status.done(`wrote ${values.out}`);
}

async function measureSize(repository: ReturnType<typeof createWideRowRepository>, namespaces: string[], records: readonly WideRowRecord[], calls: number, repeats: number): Promise<SizeResult> {
  const split = records.slice(0, 4_096).map((r) => ({ namespace: r.namespace, partitionId: r.partitionId }));
  const key = (ns: string, id: string) => `${ns}\u0000${id}`;
  const exact = new Set(records.map((r) => key(r.namespace, r.partitionId)));
  const defaultHashing = bloomFilters.BloomFilter.create(Math.max(records.length, 64), FALSE_POSITIVE_RATE);
  for (const k of exact) defaultHashing.add(k);
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const directory = createSplitDirectory({ repository, namespaces, refreshMs: 3_600_000, maxStaleMs: 3_600_000, falsePositiveRate: FALSE_POSITIVE_RATE });
  const reloadMs: number[] = [];
  const stalls: number[] = [];
  const refreshMs: number[] = [];
  const refreshStalls: number[] = [];
  const r: Pick<SizeResult, 'directory' | 'exactSet' | 'bloomFiltersDefaultHashing'> = { directory: [], exactSet: [], bloomFiltersDefaultHashing: [] };
  for (let i = 0; i < repeats; i++) {
    const full = await timedWithStall(() => directory.rebuild());
    reloadMs.push(full.ms);
    stalls.push(full.maxStallMs);
    // A few records change (written through the repository, so logged), then one refresh reads the log.
    for (let c = 0; c < CHANGED_PER_REFRESH; c++) await repository.put(completedRecord(namespaces[c % namespaces.length] as string, `changed-${i}-${c}`, Date.now() * 1_000));
    const incremental = await timedWithStall(() => directory.refresh());
    refreshMs.push(incremental.ms);
    refreshStalls.push(incremental.maxStallMs);
    // Interleaved: the three checks take turns in every repeat.
    r.directory.push(timeMembershipChecks((ns, id) => directory.mightHaveRecord(ns, id), namespaces, split, calls));
    r.exactSet.push(timeMembershipChecks((ns, id) => exact.has(key(ns, id)), namespaces, split, calls));
    r.bloomFiltersDefaultHashing.push(timeMembershipChecks((ns, id) => defaultHashing.has(key(ns, id)), namespaces, split, Math.min(calls, 100_000)));
  }
  gc();
  const heap = process.memoryUsage().heapUsed - heapBefore;
  const medianMissNs = median(r.directory.map((t) => t.missNsPerCall));
  return {
    records: directory.stats.records,
    filterBits: directory.stats.filterBits,
    filterBytes: Math.ceil(directory.stats.filterBits / 8),
    bitsPerKey: round(directory.stats.filterBits / Math.max(1, directory.stats.records), 2),
    bitsPerKeyAtCapacity: round(directory.stats.filterBits / Math.max(1, directory.stats.filterCapacity), 2),
    measuredFalsePositiveRate: measureFalsePositiveRate((ns, id) => directory.mightHaveRecord(ns, id), namespaces, FPR_PROBES),
    targetFalsePositiveRate: FALSE_POSITIVE_RATE,
    reloadMs,
    reloadMaxEventLoopStallMs: stalls,
    refreshMs,
    refreshMaxEventLoopStallMs: refreshStalls,
    directoryHeapMiB: round(heap / 2 ** 20, 1),
    ...r,
    medianMissNs,
    medianHitNs: median(r.directory.map((t) => t.hitNsPerCall)),
    missNs_vs_raw: round(medianMissNs / median(r.exactSet.map((t) => t.missNsPerCall)), 2),
  };
}

/** Runs `load` under an event-loop delay monitor (1 ms resolution): its wall time and the longest stall it caused. */
async function timedWithStall(load: () => Promise<void>): Promise<{ ms: number; maxStallMs: number }> {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const t0 = performance.now();
  await load();
  const ms = round(performance.now() - t0);
  loop.disable();
  return { ms, maxStallMs: round(loop.max / 1e6, 1) };
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function positiveInt(s: string, flag: string): number {
  const n = Number(s);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag}: expected a positive integer, got "${s}"`);
  return n;
}

main().catch((e: unknown) => {
  status.done();
  console.error(e instanceof Error ? e.stack : e);
  process.exitCode = 1;
});
