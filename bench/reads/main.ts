#!/usr/bin/env node
// bench:reads — edgestream's read path next to the raw cassandra-driver, same run, interleaved. See bench/reads/README.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import cassandra from 'cassandra-driver';
import { connectBenchClients } from '../shared/benchClients.ts';
import { createEdgeReader, createReadCounters, type EdgeReader, type OnWidePartition } from '../../reads/index.ts';
import { createServingPartitions } from '../../reads/split/createServingPartitions.ts';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import type { Mutation, TwoLevelMapStore } from '../../sinks/store/index.ts';
import type { StackEndpoints } from '../../stack/endpoints.ts';
import type { ProcessPids } from '../ingest/procStats.ts';
import { createAvroSerde } from '../../streams/serde/index.ts';
import { createStatusLine } from '../ingest/progressLine.ts';
import { fmt } from '../ingest/stats.ts';
import { codeVersion, collectVersions, machine, REPO_ROOT } from '../shared/benchEnvironment.ts';
import { openBenchStack } from '../shared/benchStack.ts';
import { defaultResultFile } from '../shared/stackChoice.ts';
import { cleanUpOnSignal } from '../shared/cleanUpOnSignal.ts';
import { cpuNote, withCpu } from '../shared/measuredCpu.ts';
import { waitForQuietCassandra, type QuietWait } from '../../sinks/cassandra/index.ts';
import { followEvent, type Celebrity } from '../wide/celebrityWorkload.ts';
import { loadMutations, type LoadResult } from '../wide/loadPhase.ts';
import { createFanOutRows, createReverseRows } from '../wide/reverseRows.ts';
import { runSplitPhase } from '../wide/splitPhase.ts';
import { createWidePublisher } from '../wide/widePublisher.ts';
import { createWideRun, newRunId, type WideRun } from '../wide/wideRun.ts';
import { DEFAULT_FOLLOWERS, DEFAULT_USERS, parseReadsArgs, USAGE, type ReadsBenchArgs } from './args.ts';
import { compareAtFixedRate } from './fixedRateComparison.ts';
import { scanOverHttp } from './httpScan.ts';
import { compareColdNewestPages, compareNewestPage } from './pageComparison.ts';
import { createRawReads, type RawReads } from './rawReads.ts';
import { buildResult, printSummary, type PhaseFigures } from './report.ts';
import { compareFullScan } from './scanComparison.ts';
import { startServeChild } from './serveChild.ts';
import { compareTraversal } from './traversalComparison.ts';
import { zipfEdges, zipfFollowEvents, zipfStarts, zipfUser, type ZipfGraph } from './zipfGraph.ts';

const EDGE_TYPE = 'follows';
const status = createStatusLine();
const say = (line: string) => status.log(line);
/** Set once the run exists: a signal then cleans it up. */
let signals: ReturnType<typeof cleanUpOnSignal> | undefined;

async function main(): Promise<void> {
  const args = parseReadsArgs(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  const started = new Date();
  say(`bench:reads — celebrity with ${fmt(args.followers)} followers, Zipf graph of ${fmt(args.users)} users × ${args.followsPerUser} follows; ${args.repeats} repeats; ${os.cpus().length} cores`);

  const stack = await openBenchStack(args.stack, { log: (l) => say(`[stack] ${l}`), keepRunning: false });
  const endpoints = stack.endpoints;
  say(`stack ${stack.label.summary}`);
  const { kafka, registry, admin } = await connectBenchClients(endpoints, 'edgestream-bench-reads');
  await admin.connect();
  // The raw reads name no level: the client's default is the store's read level (LOCAL_QUORUM), so both sides read alike.
  const cql = new cassandra.Client(stack.cqlOptions());
  await cql.connect();
  const versions = await collectVersions(endpoints, cql);
  const code = codeVersion();
  say(`stack: ${endpoints.source} — Kafka ${versions.kafka}, Cassandra ${versions.cassandra}; code ${code.commit.slice(0, 12)}${code.cleanTree ? '' : ` (tree not clean${code.dirtyOutsideBench.length ? `: ${code.dirtyOutsideBench.join(', ')}` : ''})`}`);

  const now = BigInt(Date.now()) * 1_000n;
  const celebrity: Celebrity = { label: 'A', id: 'celebrity', edgeType: EDGE_TYPE, links: args.followers, removeRatio: 0, seed: args.seed, baseTime: now - 30n * 86_400_000_000n };
  const graph: ZipfGraph = { edgeType: EDGE_TYPE, users: args.users, followsPerUser: args.followsPerUser, exponent: args.zipfExponent, seed: args.seed, baseTime: now - 20n * 86_400_000_000n };
  const configInput = {
    edgeTypes: [{ name: EDGE_TYPE }],
    runtime: { writeRetryBudgetMs: 2_000 },
    // One full scan of the celebrity crosses the detection threshold, so the chain splits it.
    wide: { directoryRefreshMs: 1_000, thresholdRows: Math.min(100_000, Math.floor(args.followers / 2)) },
  };
  const run = await createWideRun({ admin, registry, endpoints, durability: stack.durability, id: newRunId(), configInput, log: say });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `edgestream-bench-reads-${run.id}-`));
  say(`run ${run.id}: topics ${run.config.topics.prefix}*, keyspace ${run.config.cassandra.keyspace}; scratch ${dir}`);

  const cleanup = async () => {
    if (args.keep) {
      await run.store.close(); // an open Cassandra session would keep the process from exiting
      return say(`--keep: keyspace ${run.config.cassandra.keyspace}, topics ${run.config.topics.prefix}* and ${dir} left in place`);
    }
    say(`cleaning up run ${run.id}…`);
    await run.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  signals = cleanUpOnSignal(cleanup, say);

  try {
    const raw = createRawReads(cql, run.config.cassandra.keyspace, EDGE_TYPE);
    const pids = stack.serverPids();
    const load = await loadAll(args, run, celebrity, graph);
    const starts = zipfStarts(graph, args.starts);

    say(`\n── before the split ──`);
    const publisher = await createWidePublisher({ kafka, serde: createAvroSerde({ registry }), prefix: run.config.topics.prefix });
    // Only the celebrity is split: repeated traversals would also report the most followed Zipf users.
    const ignored = new Set<string>();
    const onWide: OnWidePartition = (event) => (event.partition_id === celebrity.id ? publisher.onWide(event) : void ignored.add(`${event.namespace}[${event.partition_id}]`));
    const before = await measurePhase('before', { args, run, endpoints, cql, raw, celebrity, starts, pids, dir, onWide });
    if (ignored.size > 0) say(`wide partitions detected but not split (not the celebrity): ${[...ignored].join(', ')}`);
    await publisher.flush();
    await publisher.close();
    if (publisher.detections.length === 0) throw new Error('the read counters detected no wide partition during the "before" scans');

    say(`\n── split: plan → split → verify chain in-process (bench/wide/splitPhase) ──`);
    const split = await withCpu(pids, () =>
      runSplitPhase({ kafka, serde: createAvroSerde({ registry }), store: run.store, config: run.config, detections: publisher.detections, logFile: path.join(dir, 'chain.log'), timeoutMs: args.splitTimeoutMinutes * 60_000, status, say }),
    );
    for (const p of split.partitions) say(`${p.namespace}[${p.partitionId}]: ${p.outcome} after ${p.seconds.chainStartToCompleted ?? '-'} s of chain`);
    if (split.partitions.some((p) => p.outcome !== 'COMPLETED')) say('WARNING: not every partition split; the "after" figures read those from the original');

    say(`\n── after the split ──`);
    const after = await measurePhase('after', { args, run, endpoints, cql, raw, celebrity, starts, pids, dir, onWide: () => undefined });

    const outName = args.out ?? defaultResultFile('reads', args.followers >= DEFAULT_FOLLOWERS && args.users >= DEFAULT_USERS, args.stack);
    const out = path.resolve(REPO_ROOT, outName);
    const result = buildResult({
      args,
      stack: stack.label,
      started,
      versions,
      code,
      config: run.config,
      counts: { celebrity: celebrity.id, followers: args.followers, users: args.users, zipfEdges: zipfEdges(graph), starts: starts.length },
      figures: { load, before, split, after },
      machine: machine(),
    });
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

/** The celebrity's follows (reverse namespaces only) and the Zipf graph (every fan-out write), straight to Cassandra. */
async function loadAll(args: ReadsBenchArgs, run: WideRun, celebrity: Celebrity, graph: ZipfGraph): Promise<{ celebrity: LoadResult; zipf: LoadResult }> {
  say(`\n── load (fan-out processor rows, store.mutateMany straight to Cassandra) ──`);
  const load = async (label: string, total: number, events: Iterator<readonly Mutation[]>): Promise<LoadResult> => {
    const r = await loadMutations({ store: run.store, events, total, batch: args.loadBatch, concurrency: args.loadConcurrency, status, label });
    status.done(`${label}: ${fmt(r.events)} events → ${fmt(r.additions)} cells in ${r.seconds} s (${fmt(r.rowsPerSecond)} rows/s${r.retries ? `, ${r.retries} retried calls` : ''})`);
    return r;
  };
  const reverse = createReverseRows(EDGE_TYPE);
  const celebrityLoad = await load(`celebrity follows (follows_in + follows_in_recent)`, celebrity.links, (function* () {
    for (let i = 0; i < celebrity.links; i++) yield reverse(followEvent(celebrity, i));
  })());
  const fanOut = createFanOutRows(EDGE_TYPE);
  const zipfLoad = await load(`Zipf graph follows (every fan-out write)`, zipfEdges(graph), (function* () {
    for (const e of zipfFollowEvents(graph)) yield fanOut(e);
  })());
  return { celebrity: celebrityLoad, zipf: zipfLoad };
}

/** The reader `edgestream serve` builds (cli/openReader): split-aware partitions, directory loaded, read counters on. */
async function openReader(store: TwoLevelMapStore, config: EdgestreamConfig, onWide: OnWidePartition): Promise<{ reader: EdgeReader; stop: () => void }> {
  const serving = createServingPartitions(store, config);
  await serving.start();
  return { reader: createEdgeReader({ partitions: serving.partitions, config, counters: createReadCounters({ wide: config.wide, onWide }) }), stop: () => serving.stop() };
}

async function measurePhase(
  phase: 'before' | 'after',
  x: { args: ReadsBenchArgs; run: WideRun; endpoints: StackEndpoints; cql: cassandra.Client; raw: RawReads; celebrity: Celebrity; starts: readonly string[]; pids: ProcessPids; dir: string; onWide: OnWidePartition },
): Promise<PhaseFigures> {
  const { args, celebrity } = x;
  const quietWaits: Record<string, QuietWait> = {};
  const quiet = async (what: string) => {
    const q = await waitForQuietCassandra(x.cql, { onBusy: (busy, ms) => status.update(`[${phase}] ${what}: waiting for Cassandra flushes/compactions to finish (${busy}), ${(ms / 1000).toFixed(0)} s`) });
    quietWaits[what] = q;
    if (!q.quiet) say(`[${phase}] ${what}: Cassandra STILL BUSY after ${q.seconds} s`);
  };
  const opened = await openReader(x.run.store, x.run.config, x.onWide);
  const server = await startServeChild(x.run.config, x.dir, phase, [], { endpoints: x.endpoints });
  say(`[${phase}] edgestream serve child pid ${server.pid} at ${server.url}`);
  const pids = { ...x.pids, server: server.pid };
  const { reader } = opened;
  const repeats = Array.from({ length: args.repeats }, (_, i) => i);
  try {
    await quiet('pages');
    const pages = [];
    for (const i of repeats) {
      const r = await withCpu(pids, () => compareNewestPage({ reader, raw: x.raw, edgeType: EDGE_TYPE, vertex: celebrity.id, limit: args.pageLimit, samples: args.samples, status, label: `[${phase}] newest page, repeat ${i + 1}` }));
      say(`[${phase}] newest-${args.pageLimit} page, repeat ${i + 1}: edgestream p50 ${r.edgestream.p50Ms} / p99 ${r.edgestream.p99Ms} ms, raw p50 ${r.raw.p50Ms} / p99 ${r.raw.p99Ms} ms; ${cpuNote(r.cpu)}`);
      pages.push(r);
    }
    let coldPages;
    if (phase === 'before' && args.coldPages > 0) {
      coldPages = [];
      for (const i of repeats) {
        // The most followed users, a new set every repeat: each page is read once by each side.
        const vertices = Array.from({ length: args.coldPages }, (_, j) => zipfUser(i * args.coldPages + j));
        const r = await withCpu(pids, () => compareColdNewestPages({ reader, raw: x.raw, edgeType: EDGE_TYPE, vertices, limit: args.pageLimit, status, label: `[${phase}] first reads of newest pages, repeat ${i + 1}` }));
        say(`[${phase}] first read of ${args.coldPages} newest-${args.pageLimit} pages, repeat ${i + 1}: edgestream p50 ${r.edgestream.p50Ms} / p99 ${r.edgestream.p99Ms} ms, raw p50 ${r.raw.p50Ms} / p99 ${r.raw.p99Ms} ms; ${cpuNote(r.cpu)}`);
        coldPages.push(r);
      }
    }
    await quiet('scans');
    const scans = [];
    for (const i of repeats) {
      const r = await withCpu(pids, () => compareFullScan({ reader, raw: x.raw, edgeType: EDGE_TYPE, vertex: celebrity.id, pageSize: args.scanPage, fetchSize: args.rawFetchSize, expected: celebrity.links, repeat: i, status, label: `[${phase}] full scan, repeat ${i + 1}` }));
      say(`[${phase}] full scan, repeat ${i + 1} (${r.first} first): edgestream ${fmt(r.edgestream.items)} rows in ${r.edgestream.seconds} s (${fmt(r.edgestream.itemsPerSecond)}/s, RSS ${r.edgestream.memory.baselineRssMiB} → ${r.edgestream.memory.peakRssMiB} MiB), raw ${r.raw.seconds} s (${fmt(r.raw.itemsPerSecond)}/s); ${cpuNote(r.cpu)}`);
      scans.push(r);
    }
    let traversal;
    if (phase === 'before') {
      await quiet('traversal');
      traversal = [];
      for (const i of repeats) {
        const r = await withCpu(pids, () =>
          compareTraversal({ reader, raw: x.raw, edgeType: EDGE_TYPE, starts: x.starts, hops: args.hops, cap: args.hopCap, concurrency: x.run.config.reads.traversal.concurrencyPerReplicaSet, status, label: `[${phase}] traversal, repeat ${i + 1}` }),
        );
        say(`[${phase}] traversal, repeat ${i + 1}: edgestream p50 ${r.edgestream.p50Ms} / p99 ${r.edgestream.p99Ms} ms, queries per hop ${r.edgestream.hops.map((h) => h.meanQueries).join(', ')}; raw p50 ${r.raw.p50Ms} / p99 ${r.raw.p99Ms} ms, queries per hop ${r.raw.hops.map((h) => h.meanQueries).join(', ')}; raw batched p50 ${r.rawBatched.p50Ms} / p99 ${r.rawBatched.p99Ms} ms, queries per hop ${r.rawBatched.hops.map((h) => h.meanQueries).join(', ')}; partial ${JSON.stringify(r.edgestream.partial)}; ${cpuNote(r.cpu)}`);
        traversal.push(r);
      }
    }
    await quiet('fixed rate');
    const fixedRate = [];
    for (const i of repeats) {
      const r = await withCpu(pids, () =>
        compareAtFixedRate({ baseUrl: server.url, reader, raw: x.raw, edgeType: EDGE_TYPE, vertex: celebrity.id, limit: args.pageLimit, rate: args.rate, connections: args.connections, seconds: args.httpSeconds, repeat: i, status, label: `[${phase}] fixed rate, repeat ${i + 1}` }),
      );
      say(`[${phase}] fixed rate ${args.rate}/s, repeat ${i + 1} (${r.order.join(' → ')}): HTTP p50 ${r.http.p50Ms} / p99 ${r.http.p99Ms} ms (${r.http.achievedRate}/s, ${r.http.errors} errors${r.http.firstError ? `: ${r.http.firstError}` : ''}), library p50 ${r.edgestream.p50Ms} / p99 ${r.edgestream.p99Ms} ms, raw p50 ${r.raw.p50Ms} / p99 ${r.raw.p99Ms} ms; ${cpuNote(r.cpu)}`);
      fixedRate.push(r);
    }
    await quiet('http scan');
    const httpScan = await withCpu(pids, () => scanOverHttp({ baseUrl: server.url, serverPid: server.pid, edgeType: EDGE_TYPE, vertex: celebrity.id, pageSize: args.scanPage, expected: celebrity.links, status, label: `[${phase}] full scan over HTTP` }));
    say(`[${phase}] full scan over HTTP: ${fmt(httpScan.items)} rows in ${httpScan.seconds} s (${fmt(httpScan.itemsPerSecond)}/s); server RSS ${httpScan.server.baselineRssMiB} → peak ${httpScan.server.peakRssMiB} MiB (${httpScan.server.peakSource})`);
    if (httpScan.items !== celebrity.links) throw new Error(`[${phase}] the HTTP scan returned ${httpScan.items} rows, expected ${celebrity.links}`);
    return { quietWaits, pages, ...(coldPages ? { coldPages } : {}), scans, ...(traversal ? { traversal } : {}), fixedRate, httpScan };
  } finally {
    await server.stop();
    opened.stop();
  }
}

main().catch((e: unknown) => {
  status.done();
  if (signals?.cleanedUp()) return; // the signal handler cleans up and exits
  console.error(`bench:reads failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exitCode = 1;
});
