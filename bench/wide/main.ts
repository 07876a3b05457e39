#!/usr/bin/env node
// bench:wide — newest-page latency and full-scan cost of wide partitions before and after the
// plan → split → verify chain splits them. See bench/wide/README.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import cassandra from 'cassandra-driver';
import type { connectClients } from '../../cli/connectClients.ts';
import { connectBenchClients } from '../shared/benchClients.ts';
import { createEdgeReader, createReadCounters, type EdgeReader } from '../../reads/index.ts';
import { createServingPartitions } from '../../reads/split/createServingPartitions.ts';
import { splitMirrorBarrierMs } from '../../schemas/config/edgestreamConfig.ts';
import { reverseLinkNamespace, reverseRecentNamespace, splittableNamespaces } from '../../sinks/namespaces/index.ts';
import type { Mutation } from '../../sinks/store/index.ts';
import { waitForQuietCassandra } from '../../sinks/cassandra/index.ts';
import { createAvroSerde } from '../../streams/serde/index.ts';
import { createStatusLine } from '../ingest/progressLine.ts';
import { fmt } from '../ingest/stats.ts';
import { DEFAULT_CHURN_LINKS, DEFAULT_LINKS, parseWideArgs, USAGE, type WideBenchArgs } from './args.ts';
import { checkCostAtSizes } from '../directory/checkCostAtSizes.ts';
import { measureBloomCost } from './bloomCost.ts';
import { countRemoved, followEvent, unfollowEvent, isRemoved, type Celebrity } from './celebrityWorkload.ts';
import { createCountingStore } from './countingStore.ts';
import { codeVersion, collectVersions, machine, REPO_ROOT } from '../shared/benchEnvironment.ts';
import { openBenchStack } from '../shared/benchStack.ts';
import { defaultResultFile } from '../shared/stackChoice.ts';
import type { ProcessPids } from '../ingest/procStats.ts';
import { cleanUpOnSignal } from '../shared/cleanUpOnSignal.ts';
import { cpuNote, withCpu } from '../shared/measuredCpu.ts';
import { scanAllInNeighbours } from './fullScan.ts';
import { loadMutations, type LoadResult } from './loadPhase.ts';
import { measureNewestPage } from './pageLatency.ts';
import { buildResult, printSummary, type PhaseFigures } from './report.ts';
import { createReverseRows } from './reverseRows.ts';
import { runSplitPhase } from './splitPhase.ts';
import { createWidePublisher } from './widePublisher.ts';
import { createWideRun, newRunId, type WideRun } from './wideRun.ts';

const EDGE_TYPE = 'follows';
/** Detection: half of the smaller celebrity's live links, so one full scan of each crosses it (capped at edgestream's default). */
const thresholdRowsFor = (args: WideBenchArgs, liveB: number) => Math.max(1, Math.min(100_000, Math.floor(Math.min(args.links, liveB) / 2)));
const status = createStatusLine();
const say = (line: string) => status.log(line);
/** Set once the run exists: a signal then cleans it up. */
let signals: ReturnType<typeof cleanUpOnSignal> | undefined;

async function main(): Promise<void> {
  const args = parseWideArgs(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  const started = new Date();
  const cores = os.cpus().length;
  say(`bench:wide — celebrity A ${fmt(args.links)} reverse links, celebrity B ${fmt(args.churnLinks)} follows (${Math.round(args.churnRemoveRatio * 100)}% later removed); ${cores} cores`);

  const stack = await openBenchStack(args.stack, { log: (l) => say(`[stack] ${l}`), keepRunning: false });
  const endpoints = stack.endpoints;
  say(`stack ${stack.label.summary}`);
  const { kafka, registry, admin } = await connectBenchClients(endpoints, 'edgestream-bench-wide');
  await admin.connect();
  const cql = new cassandra.Client(stack.cqlOptions());
  await cql.connect();
  const versions = await collectVersions(endpoints, cql);
  say(`stack: ${endpoints.source} — Kafka ${versions.kafka}, Cassandra ${versions.cassandra}, registry ${versions.registry}, node ${versions.node}`);
  const code = codeVersion();
  say(`code: ${code.commit.slice(0, 12)}${code.dirtyOutsideBench.length ? ` + uncommitted changes in ${code.dirtyOutsideBench.join(', ')}` : ''}`);

  const now = BigInt(Date.now()) * 1_000n;
  const A: Celebrity = { label: 'A', id: 'celebrity-a', edgeType: EDGE_TYPE, links: args.links, removeRatio: 0, seed: args.seed, baseTime: now - 30n * 86_400_000_000n };
  const B: Celebrity = { label: 'B', id: 'celebrity-b', edgeType: EDGE_TYPE, links: args.churnLinks, removeRatio: args.churnRemoveRatio, seed: args.seed, baseTime: now - 20n * 86_400_000_000n };
  const removedB = countRemoved(B);
  const liveB = B.links - removedB;

  const id = newRunId();
  const configInput = {
    edgeTypes: [{ name: EDGE_TYPE }],
    runtime: { writeRetryBudgetMs: 2_000 },
    wide: { directoryRefreshMs: 1_000, thresholdRows: thresholdRowsFor(args, liveB) },
  };
  const run = await createWideRun({ admin, registry, endpoints, durability: stack.durability, id, configInput, log: say });
  const { config } = run;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `edgestream-bench-wide-${id}-`));
  say(`run ${id}: topics ${config.topics.prefix}*, keyspace ${config.cassandra.keyspace}; wide: thresholdRows ${config.wide.thresholdRows}, thresholdBytes ${fmt(config.wide.thresholdBytes)}, directoryRefreshMs ${config.wide.directoryRefreshMs}, targetBucketBytes ${fmt(config.wide.targetBucketBytes)}, maxBuckets ${config.wide.maxBuckets}; runtime.writeRetryBudgetMs ${config.runtime.writeRetryBudgetMs}`);

  const cleanup = async () => {
    if (args.keep) {
      await run.store.close(); // an open Cassandra session would keep the process from exiting
      say(`--keep: keyspace ${config.cassandra.keyspace} and topics ${config.topics.prefix}* left in place (chain log and scratch files in ${dir})`);
    } else {
      say(`cleaning up: topics ${config.topics.prefix}*, consumer groups, registry subjects, keyspace ${config.cassandra.keyspace}…`);
      await run.cleanup();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  signals = cleanUpOnSignal(cleanup, say);

  try {
    const figures = await runPhases(args, run, { kafka, registry, cql, A, B, removedB, liveB, dir, serverPids: stack.serverPids() });
    const outName = args.out ?? defaultResultFile('wide', args.links >= DEFAULT_LINKS && args.churnLinks >= DEFAULT_CHURN_LINKS, args.stack);
    const out = path.resolve(REPO_ROOT, outName);
    const result = buildResult({ stack: stack.label, args, started, versions, code, config, figures, cores, machine: machine() });
    printSummary(result);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify(result, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`);
    say(`result JSON: ${path.relative(REPO_ROOT, out)}`);
  } finally {
    signals.release();
    if (!signals.cleanedUp()) await cleanup();
    await admin.disconnect().catch(() => undefined);
    await cql.shutdown().catch(() => undefined);
    await stack.release();
  }
}

async function runPhases(
  args: WideBenchArgs,
  run: WideRun,
  x: { kafka: Awaited<ReturnType<typeof connectClients>>['kafka']; registry: Awaited<ReturnType<typeof connectClients>>['registry']; cql: cassandra.Client; A: Celebrity; B: Celebrity; removedB: number; liveB: number; dir: string; serverPids: ProcessPids },
): Promise<PhaseFigures> {
  const { config } = run;
  const { A, B } = x;
  const counting = createCountingStore(run.store);

  // ── 1. Load ───────────────────────────────────────────────────────────────
  say(`\n── load (straight to Cassandra with mutateMany; rows from the real fan-out processor) ──`);
  say(`only ${reverseLinkNamespace(EDGE_TYPE)} and ${reverseRecentNamespace(EDGE_TYPE)} are written: the forward link, forward recent index and degree marks the fan-out also makes are skipped to save time (in-neighbour reads never touch them)`);
  const rows = createReverseRows(EDGE_TYPE);
  const load = async (label: string, total: number, events: () => Generator<readonly Mutation[]>): Promise<LoadResult> => {
    const r = await loadMutations({ store: run.store, events: events(), total, batch: args.loadBatch, concurrency: args.loadConcurrency, status, label });
    status.done(`${label}: ${fmt(r.events)} events → ${fmt(r.additions)} cells + ${fmt(r.deletions)} row tombstones in ${r.seconds} s (${fmt(r.rowsPerSecond)} rows/s${r.retries ? `, ${r.retries} retried calls` : ''})`);
    return r;
  };
  const loadA = await load(`load A follows`, A.links, function* () {
    for (let i = 0; i < A.links; i++) yield rows(followEvent(A, i));
  });
  const loadBFollows = await load(`load B follows`, B.links, function* () {
    for (let i = 0; i < B.links; i++) yield rows(followEvent(B, i));
  });
  const loadBUnfollows = await load(`load B unfollows`, x.removedB, function* () {
    for (let i = 0; i < B.links; i++) {
      if (!isRemoved(B, i)) continue;
      const { event, forwardLink } = unfollowEvent(B, i);
      const m = rows(event, forwardLink);
      if (!m.some((w) => w.namespace === reverseRecentNamespace(EDGE_TYPE) && w.deletions.length === 1)) throw new Error(`the fan-out did not delete the recent entry of unfollow ${i}`);
      yield m;
    }
  });

  // ── 2. Before the split ───────────────────────────────────────────────────
  say(`\n── before the split (split-aware serving reader; no split exists yet, so every read goes to the original partitions) ──`);
  const quietBefore = await waitForQuietCassandra(x.cql, { onBusy: (busy, ms) => status.update(`[before]: waiting for Cassandra flushes/compactions to finish (${busy}), ${(ms / 1000).toFixed(0)} s`) });
  status.done();
  say(`Cassandra ${quietBefore.quiet ? 'quiet' : 'STILL BUSY'} after ${quietBefore.seconds} s (no flush/compaction active or pending for 3 s)`);
  const before = createServingPartitions(counting.store, config);
  await before.start();
  counting.reset();
  const plainBefore = createEdgeReader({ partitions: before.partitions, config });
  const pagesBefore = await newestPages(plainBefore, args, A, B, 'before', x.serverPids);
  const publisher = await createWidePublisher({ kafka: x.kafka, serde: createAvroSerde({ registry: x.registry }), prefix: config.topics.prefix });
  const counters = createReadCounters({ wide: config.wide, onWide: publisher.onWide });
  const countedBefore = createEdgeReader({ partitions: before.partitions, config, counters });
  say(`full scans with read counters on (window ${config.wide.windowMs} ms, thresholdRows ${config.wide.thresholdRows}, thresholdBytes ${fmt(config.wide.thresholdBytes)}); onWide publishes WidePartitionDetected to ${publisher.topic}`);
  const scansBefore = await fullScans(countedBefore, args, A, B, x.liveB, 'before', x.serverPids);
  await publisher.flush();
  await publisher.close();
  const readsBefore = counting.counts();
  before.stop();
  for (const d of publisher.detections) say(`detected: ${d.namespace}[${d.partitionId}] at ${new Date(d.detectedAtMicros / 1000).toISOString()} (${fmt(d.rowsRead)} rows, ${fmt(d.bytesRead)} bytes read in the window); published ${d.publishedAtMs ? `${d.publishedAtMs - Math.round(d.detectedAtMicros / 1000)} ms later` : 'FAILED'}`);
  if (publisher.detections.length === 0) throw new Error('the read counters detected no wide partition during the full scans');

  // ── 3. Split ──────────────────────────────────────────────────────────────
  say(`\n── split: plan → split → verify chain in-process ──`);
  counting.reset();
  const split = await withCpu(x.serverPids, () => runSplitPhase({
    kafka: x.kafka,
    serde: createAvroSerde({ registry: x.registry }),
    store: counting.store,
    config,
    detections: publisher.detections,
    logFile: path.join(x.dir, 'chain.log'),
    timeoutMs: args.splitTimeoutMinutes * 60_000,
    status,
    say,
  }));
  const readsDuringSplit = counting.counts();
  for (const p of split.partitions) {
    say(`${p.namespace}[${p.partitionId}]: ${p.outcome}; detection→COMPLETED ${p.seconds.detectionToCompleted ?? '-'} s (waited ${p.seconds.detectionToChainStart} s for the chain to start; chain start→COMPLETED ${p.seconds.chainStartToCompleted ?? '-'} s): plan ${p.seconds.plan ?? '?'} s, PLANNED→copy ${p.seconds.plannedToCopy ?? '-'} s (barrier ${splitMirrorBarrierMs(config) / 1000} s + queue), copy ${p.seconds.copy ?? '-'} s, SPLIT→verify ${p.seconds.copiedToVerify ?? '-'} s (queue), verify ${p.seconds.verify ?? '-'} s`);
  }
  say(`split phase ${split.seconds} s; ${cpuNote(split.cpu)}; chain log ${split.chainLog.warnings} warnings, ${split.chainLog.errors} errors`);
  say(`cells the chain read: ${Object.entries(readsDuringSplit).filter(([ns]) => !ns.startsWith('wide_')).map(([ns, c]) => `${ns} ${fmt(c.cells)} in ${fmt(c.slices)} slices + ${fmt(c.gets)} gets`).join(', ')}`);
  const failed = split.partitions.filter((p) => p.outcome !== 'COMPLETED');
  if (failed.length > 0) say(`NOT COMPLETED: ${failed.map((p) => `${p.namespace}[${p.partitionId}] ${p.outcome}${p.record?.failure ? ` (${p.record.failure})` : ''}`).join('; ')} — the "after" figures read those partitions from the original`);

  // ── 4. After the split ────────────────────────────────────────────────────
  say(`\n── after the split (split-aware serving reader, directory loaded) ──`);
  const quietAfter = await waitForQuietCassandra(x.cql, { onBusy: (busy, ms) => status.update(`[after]: waiting for Cassandra flushes/compactions to finish (${busy}), ${(ms / 1000).toFixed(0)} s`) });
  status.done();
  say(`Cassandra ${quietAfter.quiet ? 'quiet' : 'STILL BUSY'} after ${quietAfter.seconds} s (no flush/compaction active or pending for 3 s)`);
  let fallbacks = 0;
  const after = createServingPartitions(counting.store, config, { onFallback: () => void fallbacks++ });
  await after.start();
  say(`split directory: ${after.directory.stats.records} records, Bloom filter ${fmt(after.directory.stats.filterBits)} bits`);
  counting.reset();
  const plainAfter = createEdgeReader({ partitions: after.partitions, config });
  const pagesAfter = await newestPages(plainAfter, args, A, B, 'after', x.serverPids);
  const scansAfter = await fullScans(plainAfter, args, A, B, x.liveB, 'after', x.serverPids);
  const readsAfter = counting.counts();
  const splittable = [...splittableNamespaces(config.edgeTypes).keys()];
  const bloom = measureBloomCost(after.directory, splittable, split.partitions.map((p) => ({ namespace: p.namespace, partitionId: p.partitionId })), args.bloomCalls);
  after.stop();
  say(`Bloom filter: ${bloom.missNsPerCall} ns/call for unsplit partitions, ${bloom.hitNsPerCall} ns/call for split ones (${fmt(bloom.calls)} calls each); ${bloom.records} records in ${fmt(bloom.filterBits)} bits (${fmt(bloom.filterBytes)} bytes); ${bloom.falsePositives} false positives`);
  const bloomAtSizes = await checkCostAtSizes(splittable, [4, 10_000, 1_000_000], args.bloomCalls);
  for (const c of bloomAtSizes) say(`  with ${fmt(c.records)} records: ${c.missNsPerCall} ns/call unsplit, ${c.hitNsPerCall} ns/call split; filter ${fmt(c.filterBytes)} bytes; false-positive rate ${c.falsePositiveRate}`);

  return {
    celebrities: { A, B, removedB: x.removedB, liveB: x.liveB },
    load: { A: loadA, BFollows: loadBFollows, BUnfollows: loadBUnfollows },
    before: { quietWait: quietBefore, pages: pagesBefore, scans: scansBefore, reads: readsBefore },
    detections: publisher.detections,
    split: { ...split, reads: readsDuringSplit },
    after: { quietWait: quietAfter, pages: pagesAfter, scans: scansAfter, reads: readsAfter, fallbacks },
    bloom,
    bloomAtSizes,
  };
}

async function newestPages(reader: EdgeReader, args: WideBenchArgs, A: Celebrity, B: Celebrity, phase: string, pids: ProcessPids) {
  const one = async (c: Celebrity) => {
    const r = await withCpu(pids, () => measureNewestPage({ reader, edgeType: EDGE_TYPE, vertex: c.id, limit: args.pageLimit, samples: args.samples, status, label: `[${phase}] newest-${args.pageLimit} page of ${c.label}` }));
    say(`[${phase}] newest-${args.pageLimit} page of ${c.label} (${c.id}): p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, max ${r.maxMs} ms (${r.samples} samples, ${r.items} items); ${cpuNote(r.cpu)}`);
    return r;
  };
  return { A: await one(A), B: await one(B) };
}

async function fullScans(reader: EdgeReader, args: WideBenchArgs, A: Celebrity, B: Celebrity, liveB: number, phase: string, pids: ProcessPids) {
  const one = async (c: Celebrity, expected: number) => {
    const r = await withCpu(pids, () => scanAllInNeighbours({ reader, edgeType: EDGE_TYPE, vertex: c.id, pageSize: args.scanPage, expectedItems: expected, status, label: `[${phase}] full scan of ${c.label}` }));
    say(`[${phase}] full scan of ${c.label}: ${fmt(r.items)} neighbours (expected ${fmt(expected)}) in ${r.pages} pages, ${r.seconds} s (${fmt(r.itemsPerSecond)}/s, page p50 ${r.pageP50Ms} ms, p99 ${r.pageP99Ms} ms); RSS ${r.memory.baselineRssMiB} → peak ${r.memory.peakRssMiB} MiB (+${r.memory.growthMiB} MiB, ${r.memory.peakSource}), heap peak ${r.memory.peakHeapUsedMiB} MiB; ${cpuNote(r.cpu)}`);
    if (r.items !== expected) say(`WARNING: the scan of ${c.label} returned ${r.items} neighbours, expected ${expected}`);
    return r;
  };
  return { A: await one(A, A.links), B: await one(B, liveB) };
}

main().catch((e: unknown) => {
  status.done();
  if (signals?.cleanedUp()) return; // the signal handler cleans up and exits; in-flight work fails on the closed store
  console.error(`bench:wide failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exitCode = 1;
});
