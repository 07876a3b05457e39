#!/usr/bin/env node
// bench:ingest — end-to-end ingest throughput, latency and memory of the edgestream write path,
// against the raw Cassandra ceiling measured in the same run. See bench/ingest/README.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import cassandra from 'cassandra-driver';
import type { Admin } from 'kafkajs';
import type { connectClients } from '../../cli/connectClients.ts';
import { connectBenchClients } from '../shared/benchClients.ts';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { endpointsToEnv } from '../../stack/endpoints.ts';
import { createEdgeProducer } from '../../streams/producer/index.ts';
import { createAvroSerde } from '../../streams/serde/index.ts';
import { topicName } from '../../streams/topics/index.ts';
import { parseBenchArgs, USAGE, type BenchArgs } from './args.ts';
import { createBenchRun, newRunId, type BenchRun } from './benchRun.ts';
import { opsDelta, perEvent, tableOps } from './cassandraOps.ts';
import { runBatchedCeiling, runCeiling, type BatchedCeilingRun, type CeilingRun } from './ceilingPhase.ts';
import { resolveTuning } from '../../streams/runtime/runtimeTuning.ts';
import { endOffsetTotal, waitForStableGroup } from './kafkaOffsets.ts';
import { runLatencyPhase, type LatencyResult } from './latencyPhase.ts';
import { peakRssMiB, sampleRss, spawnProcessorChild, type ProcessorChild, type RssSample } from './processorChild.ts';
import { watchCpu, type CpuReport } from './procStats.ts';
import { summarizeProfile, type ProfileSummary } from './profileSummary.ts';
import { createStatusLine } from './progressLine.ts';
import { ceilingComparison, type CeilingComparison } from './ceilingComparison.ts';
import { fmt, median, round, type AcrossRepeats } from './stats.ts';
import { runThroughputPhase, type ThroughputResult } from './throughputPhase.ts';
import { addEdgeWorkload, benchTables, PublishedEdges, publishedEvents, rowsOfAddEdge, rowsPerEdge, type BenchEdge, type Row } from './workload.ts';
import { PROCESSOR_NODE_FLAGS } from '../../cli/processorNodeFlags.ts';
import { kafkaClientChoice } from '../../cli/kafkaClientChoice.ts';
import { seedSplitDirectory } from './seedSplitDirectory.ts';
import { codeVersion, collectVersions, REPO_ROOT } from '../shared/benchEnvironment.ts';
import { openBenchStack, type BenchStack } from '../shared/benchStack.ts';
import { defaultResultFile } from '../shared/stackChoice.ts';
import { recountSettledAt } from './recountSettle.ts';

const IDLE_BASELINE_MS = 5_000;
const status = createStatusLine();
const say = (line: string) => status.log(line);

interface RepeatResult {
  readonly repeat: number;
  /** COMPLETED split records in the directory during this run (--split-records). */
  readonly splitRecords: number;
  readonly runId: string;
  /** The code the child ran (a repeat spawns its own child). */
  readonly code: ReturnType<typeof codeVersion>;
  readonly groupStableMs: number;
  readonly throughput: ThroughputResult;
  readonly throughputCpu: CpuReport;
  /** Cores used with the child running idle and no bench traffic, just before the throughput phase. */
  readonly idleCpu: CpuReport;
  readonly cassandraOpsPerEvent: ReturnType<typeof perEvent>;
  readonly latency?: LatencyResult;
  readonly latencyCpu?: CpuReport;
  /** Cassandra ops per event during the latency phase (the sampler's reads included). */
  readonly latencyCassandraOpsPerEvent?: ReturnType<typeof perEvent>;
  /** Every latency attempt; the reported one is the last (the first that was not saturated, if any). */
  readonly latencyAttempts?: readonly Record<string, unknown>[];
  /** How long the degree recounter needed after the throughput phase to take the burst's marks. */
  readonly recountLag?: RecountLag;
  readonly processor: {
    readonly peakRssMiB: number | undefined;
    readonly idleRssMiB: number | undefined;
    readonly rssAtPeakBacklogMiB: number | undefined;
    readonly maxSampledRssMiB: number;
    readonly rssSeries: readonly RssSample[];
    readonly warnings: number;
    readonly errors: number;
    readonly lastProgress: Record<string, unknown>;
  };
  readonly verification: { readonly sampledEvents: number; readonly missingRows: number; readonly repairRecords: number; readonly dlqRecords: number };
  /** The batched ceiling (bench/shared/rawIngest): the pipeline's chunks and batches, with the current-link read. */
  readonly batchedCeiling?: { readonly sweep: readonly BatchedCeilingRun[]; readonly best: BatchedCeilingRun };
  /** Pipeline edges/s ÷ batched ceiling events/s of this repeat: the fair ratio (issue 27 §4's target). */
  readonly batchedRatio?: number;
  /** The unbatched ceiling: one INSERT per row. */
  readonly ceiling?: { readonly sweep: readonly CeilingRun[]; readonly best: CeilingRun };
  /** Pipeline rows/s ÷ unbatched ceiling rows/s of this repeat. */
  readonly ratio?: number;
  readonly profile?: ProfileSummary;
}

async function main(): Promise<void> {
  const args = parseBenchArgs(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  const started = new Date();
  // The load producer's adapter (connectBenchClients) and the child's (it inherits the environment).
  if (args.kafkaClient !== undefined) process.env['EDGESTREAM_KAFKA_CLIENT'] = args.kafkaClient;
  say(`bench:ingest — ${args.events} ADD_EDGE events × ${args.repeats} repeats, ${os.cpus().length} cores`);

  const stack = await openBenchStack(args.stack, { log: (l) => say(`[stack] ${l}`), keepRunning: true });
  const endpoints = stack.endpoints;
  say(`stack ${stack.label.summary}`);
  const kafkaClient = kafkaClientChoice(endpoints);
  say(`Kafka client: ${kafkaClient}`);
  const { kafka, registry, admin } = await connectBenchClients(endpoints, 'edgestream-bench');
  await admin.connect();
  const cql = new cassandra.Client(stack.cqlOptions({ encoding: { useBigIntAsLong: true }, socketOptions: { readTimeout: 12_000 } }));
  await cql.connect();
  const versions = await collectVersions(endpoints, cql);
  say(`stack: ${endpoints.source} — Kafka ${versions.kafka}, Cassandra ${versions.cassandra}, registry ${versions.registry}, node ${versions.node}`);

  let current: { runId?: string; run?: BenchRun; child?: ProcessorChild } = {};
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    say(`\n${signal}: stopping the processor child and cleaning up…`);
    void (async () => {
      await current.child?.stop(10_000).catch(() => undefined);
      await current.run?.cleanup().catch(() => undefined);
      if (current.runId) await dropKeyspacesOf(cql, current.runId).catch(() => undefined);
      process.exit(130);
    })();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const results: RepeatResult[] = [];
  try {
    for (let r = 1; r <= args.repeats; r++) {
      // Variants take turns, the first one rotating, so neither always runs on a fresher machine.
      const n = args.splitRecords.length;
      for (let v = 0; v < n; v++) {
        const splitRecords = args.splitRecords[(v + r - 1) % n] as number;
        results.push(await runRepeat(args, r, splitRecords, { admin, registry, kafka, cql, stack, results, setCurrent: (c) => (current = c) }));
        current = {};
      }
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await admin.disconnect().catch(() => undefined);
    await cql.shutdown().catch(() => undefined);
    await stack.release();
  }

  const summary = summarize(args, results);
  printSummary(args, summary, results);
  const out = path.resolve(REPO_ROOT, args.out ?? defaultResultFile('ingest', args.events >= 200_000, args.stack));
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const doc = {
    benchmark: 'bench:ingest',
    date: started.toISOString(),
    durationSeconds: Math.round((Date.now() - started.getTime()) / 1000),
    machine: { cores: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown', memoryGiB: round(os.totalmem() / 2 ** 30, 1), loadAverageAtEnd: os.loadavg().map((x) => round(x, 2)) },
    versions,
    code: codeVersion(),
    method: METHOD,
    args,
    stack: stack.label,
    kafkaClient,
    pipelineConfig: results[0] ? configOf(results[0]) : undefined,
    summary,
    repeats: results.map((r) => ({ ...r, processor: { ...r.processor, rssSeries: thin(r.processor.rssSeries, 60) } })),
  };
  fs.writeFileSync(out, `${JSON.stringify(doc, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`);
  say(`result JSON: ${path.relative(REPO_ROOT, out)}`);
}

const configs = new Map<string, EdgestreamConfig>();
const configOf = (r: RepeatResult) => {
  const c = configs.get(r.runId);
  return c ? { ...c, topics: { ...c.topics, prefix: 'bench.<run>.' }, cassandra: { ...c.cassandra, keyspace: 'bench_<run>' } } : undefined;
};

async function runRepeat(
  args: BenchArgs,
  r: number,
  splitRecords: number,
  deps: {
    admin: Admin;
    registry: Awaited<ReturnType<typeof connectClients>>['registry'];
    kafka: Awaited<ReturnType<typeof connectClients>>['kafka'];
    cql: cassandra.Client;
    stack: BenchStack;
    results: readonly RepeatResult[];
    setCurrent: (c: { runId?: string; run?: BenchRun; child?: ProcessorChild }) => void;
  },
): Promise<RepeatResult> {
  const { admin } = deps;
  const { endpoints, durability } = deps.stack;
  // Re-read every repeat: another user of a shared local stack may have restarted a server.
  const serverPids = deps.stack.serverPids();
  const runId = newRunId(`r${r}`);
  say(`\n── repeat ${r}/${args.repeats} (run ${runId}) ──`);
  say(`machine load average: ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const runtime: Record<string, number> = {};
  if (args.partitionsConsumedConcurrently !== undefined) runtime['partitionsConsumedConcurrently'] = args.partitionsConsumedConcurrently;
  if (args.writeConcurrency !== undefined) runtime['writeConcurrency'] = args.writeConcurrency;
  if (args.linkCacheEntries !== undefined) runtime['linkCacheEntries'] = args.linkCacheEntries;
  if (args.recountIntervalMs !== undefined) runtime['recountIntervalMs'] = args.recountIntervalMs;
  const run = await createBenchRun({
    admin,
    registry: deps.registry,
    endpoints,
    durability,
    id: runId,
    configInput: { edgeTypes: [{ name: args.edgeType }], topics: { partitions: args.partitions }, runtime },
    log: say,
  });
  configs.set(runId, run.config);
  deps.setCurrent({ runId, run });
  say(`created topics ${run.config.topics.prefix}*, keyspace ${run.config.cassandra.keyspace}, config ${run.configFile}`);
  if (splitRecords > 0) say(`[r${r}] ${fmt(await seedSplitDirectory(endpoints, run.config, splitRecords, args.splitTouched, (line) => status.update(line)))} COMPLETED split records in the directory`);

  const code = codeVersion();
  say(`code: ${code.commit.slice(0, 12)}${code.dirtyOutsideBench.length ? ` + uncommitted changes in ${code.dirtyOutsideBench.join(', ')}` : ''}`);
  const profileDir = path.join(run.dir, 'profile');
  const child = spawnProcessorChild({
    repoRoot: REPO_ROOT,
    entry: args.childEntry,
    args: ['--config', run.configFile, 'run', ...args.stages, ...args.childArgs],
    nodeArgs: [...PROCESSOR_NODE_FLAGS, ...args.childNodeArgs, ...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
    env: { ...process.env, ...endpointsToEnv(endpoints), LOG_LEVEL: 'info' },
    logFile: path.join(run.dir, 'processor.log'),
  });
  deps.setCurrent({ runId, run, child });
  const producer = createEdgeProducer({ kafka: deps.kafka, serde: createAvroSerde({ registry: deps.registry }), config: run.config });
  let result: RepeatResult | undefined;
  try {
    await child.ready;
    const groupStableMs = await waitForStableGroup(admin, run.fanOutGroup, 60_000);
    say(`processor child pid ${child.pid} running (${args.stages.join(', ')}); group ${run.fanOutGroup} stable after ${groupStableMs} ms`);
    const idleRss = peakRssMiB(child.pid);
    // What the servers and the idle child burn with no bench traffic (other users of the stack included).
    const idleWatch = watchCpu({ processor: child.pid, ...serverPids });
    await new Promise((resolve) => setTimeout(resolve, IDLE_BASELINE_MS));
    const idleCpu = idleWatch.stop();
    say(`[r${r}] idle baseline (${IDLE_BASELINE_MS / 1000} s, no bench traffic): ${Object.entries(idleCpu.coresByProcess).map(([k, v]) => `${k} ${v}`).join(', ')} cores; machine busy ${idleCpu.machineBusyCores}/${idleCpu.machineCores}`);

    let backlog = 0;
    let phase = 'idle';
    const rss = sampleRss(child.pid, 250, () => ({ backlog, phase }));
    const published = new PublishedEdges();
    const workload = addEdgeWorkload({ edgeType: args.edgeType, users: args.users, zipfExponent: args.zipfExponent, seed: args.seed });

    // Phase 1: throughput (processors already consuming; producer flat out; the backlog builds and is drained).
    phase = 'throughput';
    const ops0 = await tableOps(deps.cql, run.config.cassandra.keyspace);
    const cpu = watchCpu({ processor: child.pid, ...serverPids, bench: process.pid });
    const throughput = await runThroughputPhase({
      admin,
      producer,
      child,
      groupId: run.fanOutGroup,
      topic: run.inputTopic,
      repair: run.repair,
      events: args.events,
      publish: () => {
        const edge = workload.next().value as BenchEdge;
        return producer.addEdge({ type: args.edgeType, src: edge.src, dst: edge.dst, properties: edge.properties }).then((sent) => {
          published.add(edge, sent.mutationId, sent.eventTime);
          return rowsPerEdge(edge);
        });
      },
      status,
      label: `[r${r}] throughput`,
      onSample: (s) => (backlog = s.produced - s.committed),
    });
    const throughputCpu = cpu.stop();
    const throughputEndedAt = performance.now();
    const cassandraOps = perEvent(opsDelta(ops0, await tableOps(deps.cql, run.config.cassandra.keyspace)), throughput.events);
    status.done(
      `[r${r}] throughput: ${fmt(throughput.edgesPerSecond)} edges/s, ${fmt(throughput.rowsPerSecond)} rows/s end to end (${throughput.endToEndSeconds} s; produce ${throughput.produceSeconds} s at ${fmt(throughput.produceEventsPerSecond)}/s, peak backlog ${fmt(throughput.peakBacklog)}, drain after produce ${fmt(throughput.drainAfterProduce.perSecond)}/s)`,
    );
    say(`[r${r}] cores used: ${Object.entries(throughputCpu.coresByProcess).map(([k, v]) => `${k} ${v}`).join(', ')}; machine busy ${throughputCpu.machineBusyCores}/${throughputCpu.machineCores}`);
    say(`[r${r}] Cassandra ops per event: ${cassandraOps.totalWrites} partition writes (${Object.entries(cassandraOps.writes).map(([k, v]) => `${k} ${v}`).join(', ')}), ${cassandraOps.totalReads} reads (${Object.entries(cassandraOps.reads).map(([k, v]) => `${k} ${v}`).join(', ')})`);
    const rssAtPeakBacklog = [...rss.samples].filter((s) => s.phase === 'throughput').sort((a, b) => b.backlog - a.backlog)[0]?.rssMiB;

    const verification = await verify(deps.cql, admin, run, args, published, throughput.events);
    say(`[r${r}] verified ${verification.sampledEvents} sampled events: ${verification.missingRows} missing rows; repair topic ${verification.repairRecords}, DLQ ${verification.dlqRecords}`);

    // The degree recounter lags a burst: let it take the burst's marks before measuring steady-state latency.
    phase = 'recount-settle';
    const recountLag = args.stages.includes('recount') && !args.skipLatency ? await waitForRecountToSettle(child, throughputEndedAt, run.config.runtime.recountIntervalMs, r) : undefined;

    // Phase 2: latency at a fixed offered rate below saturation. The burst above defers recount work, so a share of
    // its rate can still saturate the pipeline in steady state: a saturated attempt is repeated at 70% of its rate.
    let latency: LatencyResult | undefined;
    let latencyCpu: CpuReport | undefined;
    let latencyOps: ReturnType<typeof perEvent> | undefined;
    const latencyAttempts: LatencyAttempt[] = [];
    if (!args.skipLatency) {
      const measured = median([...deps.results.map((x) => x.throughput.edgesPerSecond), throughput.edgesPerSecond]);
      let fraction = args.latencyFraction;
      for (let attempt = 1; attempt <= args.latencyAttempts; attempt++) {
        if (attempt > 1 && args.stages.includes('recount')) await waitForRecountToSettle(child, performance.now(), run.config.runtime.recountIntervalMs, r, `latency attempt ${attempt - 1}`);
        const rate = Math.max(1, Math.round(measured * fraction));
        phase = 'latency';
        const lops0 = await tableOps(deps.cql, run.config.cassandra.keyspace);
        const lcpu = watchCpu({ processor: child.pid, ...serverPids, bench: process.pid });
        latency = await runLatencyPhase({
          admin,
          producer,
          cql: deps.cql,
          keyspace: run.config.cassandra.keyspace,
          child,
          groupId: run.fanOutGroup,
          topic: run.inputTopic,
          edgeType: args.edgeType,
          workload,
          published,
          ratePerSecond: rate,
          seconds: args.latencySeconds,
          warmupSeconds: args.latencyWarmupSeconds,
          samplesPerSecond: args.samplesPerSecond,
          pollIntervalMs: args.pollMs,
          status,
          label: `[r${r}] latency`,
          onSample: (s) => (backlog = s.produced - s.committed),
        });
        latencyCpu = lcpu.stop();
        latencyOps = perEvent(opsDelta(lops0, await tableOps(deps.cql, run.config.cassandra.keyspace)), latency.events);
        latencyAttempts.push({ fraction: round(fraction, 3), result: latency, cpu: latencyCpu, cassandraOpsPerEvent: latencyOps });
        status.done(
          `[r${r}] latency at ${fmt(latency.offeredPerSecond)}/s offered (${Math.round(fraction * 100)}% of ${fmt(measured)})${latency.saturated ? ' SATURATED' : ''}: committed ${fmt(latency.committedPerSecondWhileIssuing)}/s while issuing, backlog at end ${fmt(latency.backlogAtEnd)}; event→all rows visible p50 ${latency.allRowsMs.p50} ms, p99 ${latency.allRowsMs.p99} ms (forward link p50 ${latency.forwardMs.p50}, p99 ${latency.forwardMs.p99}; ${latency.samples} samples, ${latency.missing} missing, sampler ${latency.samplerReadsPerSecond} reads/s); cores: ${Object.entries(latencyCpu.coresByProcess).map(([k, v]) => `${k} ${v}`).join(', ')}; machine busy ${latencyCpu.machineBusyCores}/${latencyCpu.machineCores}; Cassandra per event ${latencyOps.totalWrites} writes, ${latencyOps.totalReads} reads`,
        );
        if (!latency.saturated) break;
        fraction *= 0.7;
      }
    }
    phase = 'done';
    rss.stop();
    const peak = peakRssMiB(child.pid);
    const lastProgress = Object.fromEntries(child.progress);
    const exit = await child.stop();
    say(`[r${r}] processor peak RSS (VmHWM) ${peak} MiB; idle ${idleRss} MiB; at peak backlog ${rssAtPeakBacklog} MiB; stopped (${exit.signal ?? `exit ${exit.code}`})`);
    let profile: ProfileSummary | undefined;
    if (args.profile) {
      const file = fs.existsSync(profileDir) ? fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile')) : undefined;
      if (file) {
        profile = summarizeProfile(path.join(profileDir, file));
        const keep = path.join(REPO_ROOT, 'bench', 'results', 'profiles', `processor-${runId}.cpuprofile`);
        fs.mkdirSync(path.dirname(keep), { recursive: true });
        fs.copyFileSync(path.join(profileDir, file), keep);
        say(`[r${r}] CPU profile kept as ${path.relative(REPO_ROOT, keep)} (open it in Chrome DevTools → Performance)`);
        printProfile(profile);
      } else say(`[r${r}] no CPU profile was written (did the child exit gracefully?)`);
    }
    await producer.close();
    const processor = {
      peakRssMiB: peak,
      idleRssMiB: idleRss,
      rssAtPeakBacklogMiB: rssAtPeakBacklog,
      maxSampledRssMiB: Math.max(...rss.samples.map((s) => s.rssMiB)),
      rssSeries: rss.samples,
      warnings: child.counts.warn,
      errors: child.counts.error + child.counts.fatal,
      lastProgress,
    };
    await run.cleanup();
    deps.setCurrent({ runId });

    // Phase 3: the raw ceilings — the same events' rows, straight into fresh keyspaces with cassandra-driver:
    // batched (the pipeline's chunks and batches, with the current-link read) and unbatched, in turns.
    let ceiling: RepeatResult['ceiling'];
    let batchedCeiling: RepeatResult['batchedCeiling'];
    if (!args.skipCeiling) {
      const cpuPids = { ...serverPids, bench: process.pid };
      const tables = benchTables(args.edgeType);
      const rowsPerEvent = throughput.rows / throughput.events;
      const runBatched = async () => {
        const count = (limit: number) => ({ events: publishedEvents(args.edgeType, published, limit), eventCount: limit });
        const common = { endpoints, durability, tables, partitions: args.partitions, chunkEvents: resolveTuning(run.config).maxRecordsPerChunk, status, cpuPids };
        const sweepEvents = Math.min(throughput.events, Math.ceil(args.ceilingSweepRows / rowsPerEvent));
        const sweep: BatchedCeilingRun[] = [];
        for (const c of args.batchedLevels) {
          const res = await runBatchedCeiling({ ...common, ...count(sweepEvents), keyspace: `bench_${runId}_bat${c}`, chunksInFlight: c, label: `[r${r}] batched ceiling sweep ${c} chunks` });
          sweep.push(res);
          status.done(`[r${r}] batched ceiling sweep: ${c} chunks in flight → ${fmt(res.eventsPerSecond)} events/s (${fmt(res.events)} events, ${fmt(res.readRequests)} reads, ${fmt(res.writeRequests)} write requests)`);
        }
        const bestLevel = [...sweep].sort((a, b) => b.eventsPerSecond - a.eventsPerSecond)[0]!.chunksInFlight;
        const best = await runBatchedCeiling({ ...common, ...count(throughput.events), keyspace: `bench_${runId}_batched`, chunksInFlight: bestLevel, label: `[r${r}] batched ceiling ${bestLevel} chunks` });
        batchedCeiling = { sweep, best };
        status.done(
          `[r${r}] batched ceiling: ${fmt(best.eventsPerSecond)} events/s = ${fmt(best.eventsPerSecond * rowsPerEvent)} rows/s at ${bestLevel} chunks in flight (${fmt(best.events)} events in ${best.seconds} s; ${round(best.readRequests / best.events, 3)} reads and ${round(best.writeRequests / best.events, 3)} write requests per event); pipeline/batched ceiling ${(throughput.edgesPerSecond / best.eventsPerSecond).toFixed(3)}`,
        );
        say(`[r${r}] cores used during the batched ceiling: ${Object.entries(best.cpu.coresByProcess).map(([k, v]) => `${k} ${v}`).join(', ')}; machine busy ${best.cpu.machineBusyCores}/${best.cpu.machineCores}`);
      };
      const runUnbatched = async () => {
        const rowsFor = (limit: number) =>
          (function* (): Generator<Row> {
            let n = 0;
            for (let i = 0; i < throughput.events; i++) {
              for (const row of rowsOfAddEdge(args.edgeType, published.edges[i]!, published.mutationIds[i]!, published.eventTimes[i]!)) {
                if (n++ >= limit) return;
                yield row;
              }
            }
          })();
        const sweepRows = Math.min(args.ceilingSweepRows, throughput.rows);
        const sweep: CeilingRun[] = [];
        for (const c of args.ceilingLevels) {
          const res = await runCeiling({ endpoints, durability, keyspace: `bench_${runId}_ceil${c}`, tables, rows: () => rowsFor(sweepRows), rowCount: sweepRows, concurrency: c, status, label: `[r${r}] unbatched ceiling sweep c=${c}`, cpuPids });
          sweep.push(res);
          status.done(`[r${r}] unbatched ceiling sweep: concurrency ${c} → ${fmt(res.rowsPerSecond)} rows/s (${fmt(res.rows)} rows)`);
        }
        const bestLevel = [...sweep].sort((a, b) => b.rowsPerSecond - a.rowsPerSecond)[0]!.concurrency;
        const best = await runCeiling({ endpoints, durability, keyspace: `bench_${runId}_ceiling`, tables, rows: () => rowsFor(throughput.rows), rowCount: throughput.rows, concurrency: bestLevel, status, label: `[r${r}] unbatched ceiling c=${bestLevel}`, cpuPids });
        ceiling = { sweep, best };
        status.done(`[r${r}] unbatched ceiling: ${fmt(best.rowsPerSecond)} rows/s at concurrency ${bestLevel} (${fmt(best.rows)} rows in ${best.seconds} s); pipeline/unbatched ceiling ${(throughput.rowsPerSecond / best.rowsPerSecond).toFixed(3)}`);
        say(`[r${r}] cores used during the unbatched ceiling: ${Object.entries(best.cpu.coresByProcess).map(([k, v]) => `${k} ${v}`).join(', ')}; machine busy ${best.cpu.machineBusyCores}/${best.cpu.machineCores}`);
      };
      // Neither ceiling always runs first (on a machine warmer from the pipeline, or emptier).
      for (const phase of r % 2 === 1 ? [runBatched, runUnbatched] : [runUnbatched, runBatched]) await phase();
    }

    result = {
      repeat: r,
      splitRecords,
      runId,
      code,
      groupStableMs,
      throughput,
      throughputCpu,
      idleCpu,
      cassandraOpsPerEvent: cassandraOps,
      ...(latency ? { latency } : {}),
      ...(latencyCpu ? { latencyCpu } : {}),
      ...(latencyOps ? { latencyCassandraOpsPerEvent: latencyOps } : {}),
      ...(latencyAttempts.length ? { latencyAttempts: latencyAttempts.map((a) => ({ fraction: a.fraction, offeredPerSecond: a.result.offeredPerSecond, saturated: a.result.saturated, committedPerSecondWhileIssuing: a.result.committedPerSecondWhileIssuing, backlogAtEnd: a.result.backlogAtEnd, p50Ms: a.result.allRowsMs.p50, p99Ms: a.result.allRowsMs.p99, cassandraOpsPerEvent: a.cassandraOpsPerEvent, cpu: a.cpu })) } : {}),
      ...(recountLag ? { recountLag } : {}),
      processor,
      verification,
      ...(batchedCeiling ? { batchedCeiling, batchedRatio: round(throughput.edgesPerSecond / batchedCeiling.best.eventsPerSecond, 3) } : {}),
      ...(ceiling ? { ceiling, ratio: round(throughput.rowsPerSecond / ceiling.best.rowsPerSecond, 3) } : {}),
      ...(profile ? { profile } : {}),
    };
    return result;
  } finally {
    if (!result) {
      status.done();
      say(`repeat ${r} failed; processor log tail:\n${child.tail().slice(-15).join('\n')}`);
      await producer.close().catch(() => undefined);
      await child.stop(10_000).catch(() => undefined);
      await run.cleanup().catch(() => undefined);
    }
  }
}

interface LatencyAttempt {
  readonly fraction: number;
  readonly result: LatencyResult;
  readonly cpu: CpuReport;
  readonly cassandraOpsPerEvent: ReturnType<typeof perEvent>;
}

interface RecountLag {
  /** Throughput phase end → the recounter took the last of the burst's marks (`recountSettledAt`). */
  readonly seconds: number;
  readonly settled: boolean;
  readonly roundsAfterThroughput: number;
  readonly marksAfterThroughput: number;
  /** Rounds and marks while the throughput phase ran. */
  readonly roundsDuringThroughput: number;
  readonly marksDuringThroughput: number;
}

async function waitForRecountToSettle(child: ProcessorChild, sinceMs: number, intervalMs: number, r: number, sinceWhat = 'the throughput phase'): Promise<RecountLag> {
  const timeoutMs = 600_000;
  const t0 = performance.now();
  for (;;) {
    const after = child.recountRounds.filter((x) => x.atMs >= sinceMs);
    const settledAt = recountSettledAt(child.recountRounds, sinceMs, performance.now(), Math.max(15_000, 5 * intervalMs));
    const waited = performance.now() - t0;
    if (settledAt !== undefined || waited > timeoutMs || child.exitedEarly()) {
      const during = child.recountRounds.filter((x) => x.atMs < sinceMs);
      const lag: RecountLag = {
        seconds: round(((settledAt ?? performance.now()) - sinceMs) / 1000, 1),
        settled: settledAt !== undefined,
        roundsAfterThroughput: after.length,
        marksAfterThroughput: after.reduce((n, x) => n + x.marks, 0),
        roundsDuringThroughput: during.length,
        marksDuringThroughput: during.reduce((n, x) => n + x.marks, 0),
      };
      status.done(`[r${r}] recounter ${lag.settled ? 'caught up' : 'still behind (gave up waiting)'} ${lag.seconds} s after ${sinceWhat} (${lag.roundsAfterThroughput} more rounds, ${fmt(lag.marksAfterThroughput)} marks; before that ${lag.roundsDuringThroughput} rounds, ${fmt(lag.marksDuringThroughput)} marks in all)`);
      return lag;
    }
    status.update(`[r${r}] waiting for the degree recounter to take the burst's marks: ${after.length} rounds, ${fmt(after.reduce((n, x) => n + x.marks, 0))} marks, ${(waited / 1000).toFixed(0)} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Reads back every row of a random sample of events (an entry a later ADD of its edge superseded must be gone), and checks nothing went to repair or the DLQ. */
async function verify(cql: cassandra.Client, admin: Admin, run: BenchRun, args: BenchArgs, published: PublishedEdges, events: number) {
  const sample = Math.min(2_000, events);
  let missing = 0;
  const ks = run.config.cassandra.keyspace;
  const indexes = Array.from({ length: sample }, (_, i) => Math.floor((i * events) / sample));
  for (let i = 0; i < indexes.length; i += 100) {
    await Promise.all(
      indexes.slice(i, i + 100).flatMap((e) =>
        rowsOfAddEdge(args.edgeType, published.edges[e]!, published.mutationIds[e]!, published.eventTimes[e]!).map(async (row) => {
          const rs = await cql.execute(`SELECT WRITETIME(value) AS wt FROM "${ks}"."${row.table}" WHERE id = ? AND key = ?`, [row.id, row.key], { prepare: true });
          const wt = rs.first()?.['wt'] as bigint | null | undefined;
          // A re-added edge's older index entries are deleted (the index is exact): those must be absent.
          if (row.table.endsWith('_recent') && published.superseded(e)) {
            if (wt !== undefined && wt !== null) missing++;
          } else if (wt === undefined || wt === null || wt < row.writeTime) missing++;
        }),
      ),
    );
  }
  const prefix = run.config.topics.prefix;
  return {
    sampledEvents: sample,
    missingRows: missing,
    repairRecords: await endOffsetTotal(admin, topicName(prefix, 'edge-mutations.repair')).catch(() => -1),
    dlqRecords: await endOffsetTotal(admin, topicName(prefix, 'edge-mutations.dlq')).catch(() => -1),
  };
}

/** Drops every keyspace of a run (the pipeline's and the ceiling's), e.g. after an interrupt. */
async function dropKeyspacesOf(cql: cassandra.Client, runId: string): Promise<void> {
  const rs = await cql.execute('SELECT keyspace_name FROM system_schema.keyspaces');
  for (const ks of rs.rows.map((x) => String(x['keyspace_name'])).filter((k) => k.startsWith(`bench_${runId}`))) {
    await cql.execute(`DROP KEYSPACE IF EXISTS "${ks}"`, [], { readTimeout: 60_000 });
  }
}

const METHOD = {
  workload: 'ADD_EDGE only (cli/workload/syntheticGraph with unfollow/property shares 0): uniform sources, Zipf targets, one "via" property, 5 rows per event',
  rows: 'cells of the answer the fan-out writes per ADD_EDGE: T_out, T_in, T_out_recent, T_in_recent, one T_props per property (degree_dirty intents and marks, chunk collections and node-tombstone reads are pipeline overhead, not rows: counts are not visible when the throughput window ends)',
  throughput:
    'processors (child `node bin/edgestream.js --config <tmp> run <stages>`) start on an empty topic and join their group; the bench then publishes the events flat out with the EdgeProducer SDK while the pipeline drains concurrently (the producer outruns it, so a backlog builds); end to end = first produce call → the fan-out group has committed the last offset (commits follow acknowledged Cassandra writes), polled every 50 ms',
  latency:
    'open-loop producer at a fixed rate (a share of the median measured edges/s); a sample of events is followed by point reads (LOCAL_QUORUM) of each of its rows until present with its write time; latency = produce call → every row seen',
  memory: 'VmRSS of the child sampled every 250 ms with the backlog at that moment; VmHWM read before the child is stopped',
  batchedCeiling:
    'the least work the same answer needs, with cassandra-driver (bench/shared/rawIngest): the events cut into the chunks the fan-out takes (maxRecordsPerChunk per input partition, murmur2 over --partitions); per chunk one packed read of every event’s current T_out[src][dst] with its write time (id IN ? AND key IN ?, packed as getCells packs it), then the real fan-out’s write waves for what was read (links and properties, then the index entries; a superseded entry’s deletion first), degree intents left out, each wave batched as mutateMany batches it (one id’s namespaces in one batch, up to 10 partitions of one replica set and 5 KiB per batch, 64 statements); an edge repeated within a chunk reads back the chunk’s own write, a chunk sharing an edge with one in flight waits for it; N chunks in flight with 16 requests each; a sweep over N on a prefix, then every event at the best N; LOCAL_QUORUM, prepared, store DDL, fresh keyspace',
  ceiling:
    'unbatched: the same rows (same ids, keys, values, write times) with cassandra-driver: one prepared INSERT … USING TIMESTAMP per row (the store statement text) into tables made with the store DDL in a fresh keyspace, LOCAL_QUORUM, N requests in flight; a sweep over concurrency levels on a prefix of the rows, then all rows at the best level; run after the processors stopped and the pipeline keyspace was dropped',
  ratio: 'pipeline end-to-end edges/s ÷ each ceiling’s edges/s of the same repeat (the same events, so the same as rows/s); every repeat, the median and the range are reported; both ceilings run after the repeat’s pipeline phases, batched first in odd repeats, unbatched first in even ones',
};

/** The `summary` of the result JSON (bench:cluster reads its medians). */
export type IngestSummary = ReturnType<typeof summarize>;

function summarize(args: BenchArgs, allResults: readonly RepeatResult[]) {
  // The medians describe the first --split-records variant; bySplitRecords compares the others with it.
  const results = allResults.filter((r) => r.splitRecords === args.splitRecords[0]);
  const m = (f: (r: RepeatResult) => number | undefined, digits = 1) => {
    const xs = results.map(f).filter((x): x is number => x !== undefined && Number.isFinite(x));
    return xs.length ? round(median(xs), digits) : undefined;
  };
  return {
    cores: os.cpus().length,
    repeats: results.length,
    eventsPerRepeat: args.events,
    rowsPerRepeat: results[0]?.throughput.rows,
    medians: {
      edgesPerSecond: m((r) => r.throughput.edgesPerSecond),
      rowsPerSecond: m((r) => r.throughput.rowsPerSecond),
      endToEndSeconds: m((r) => r.throughput.endToEndSeconds),
      drainAfterProducePerSecond: m((r) => r.throughput.drainAfterProduce.perSecond),
      produceEventsPerSecond: m((r) => r.throughput.produceEventsPerSecond),
      latencyOfferedPerSecond: m((r) => r.latency?.offeredPerSecond),
      latencyOfferedShareOfThroughput: m((r) => (r.latency ? r.latency.offeredPerSecond / r.throughput.edgesPerSecond : undefined), 2),
      latencySaturatedRepeats: results.filter((r) => r.latency?.saturated).length,
      latencySamples: m((r) => r.latency?.samples),
      samplerReadsPerSecond: m((r) => r.latency?.samplerReadsPerSecond),
      recountLagSeconds: m((r) => r.recountLag?.seconds),
      latencyP50Ms: m((r) => r.latency?.allRowsMs.p50),
      latencyP99Ms: m((r) => r.latency?.allRowsMs.p99),
      forwardLinkP50Ms: m((r) => r.latency?.forwardMs.p50),
      forwardLinkP99Ms: m((r) => r.latency?.forwardMs.p99),
      processorPeakRssMiB: m((r) => r.processor.peakRssMiB),
      batchedCeilingEdgesPerSecond: m((r) => r.batchedCeiling?.best.eventsPerSecond),
      batchedCeilingRowsPerSecond: m((r) => (r.batchedCeiling ? r.batchedCeiling.best.eventsPerSecond * rowsPerEvent(r) : undefined)),
      batchedCeilingBestChunksInFlight: m((r) => r.batchedCeiling?.best.chunksInFlight),
      batchedCeilingReadsPerEvent: m((r) => (r.batchedCeiling ? r.batchedCeiling.best.readRequests / r.batchedCeiling.best.events : undefined), 3),
      batchedCeilingWriteRequestsPerEvent: m((r) => (r.batchedCeiling ? r.batchedCeiling.best.writeRequests / r.batchedCeiling.best.events : undefined), 3),
      batchedRatio: m((r) => r.batchedRatio, 3),
      ceilingRowsPerSecond: m((r) => r.ceiling?.best.rowsPerSecond),
      ceilingBestConcurrency: m((r) => r.ceiling?.best.concurrency),
      ratio: m((r) => r.ratio, 3),
      batchedCpuEfficiencyRatio: m((r) => cpuEfficiencyRatio(r, batchedAsCeiling(r)), 3),
      cpuEfficiencyRatio: m((r) => cpuEfficiencyRatio(r, r.ceiling?.best), 3),
      bareProcessorBound: m((r) => bareProcessorBound(r, batchedAsCeiling(r)), 3),
      drainOnlyRatio: m((r) => (r.ceiling ? round((r.throughput.drainAfterProduce.perSecond * (r.throughput.rows / r.throughput.events)) / r.ceiling.best.rowsPerSecond, 3) : undefined), 3),
      pipelineCpuMicrosPerRow: {
        processor: m((r) => cpuMicrosPerRow(r.throughputCpu, r.throughput.rowsPerSecond)['processor']),
        cassandra: m((r) => cpuMicrosPerRow(r.throughputCpu, r.throughput.rowsPerSecond)['cassandra']),
        kafka: m((r) => cpuMicrosPerRow(r.throughputCpu, r.throughput.rowsPerSecond)['kafka']),
        producer: m((r) => cpuMicrosPerRow(r.throughputCpu, r.throughput.rowsPerSecond)['bench']),
      },
      batchedCeilingCpuMicrosPerRow: {
        client: m((r) => { const c = batchedAsCeiling(r); return c ? cpuMicrosPerRow(c.cpu, c.rowsPerSecond)['bench'] : undefined; }),
        cassandra: m((r) => { const c = batchedAsCeiling(r); return c ? cpuMicrosPerRow(c.cpu, c.rowsPerSecond)['cassandra'] : undefined; }),
      },
      ceilingCpuMicrosPerRow: {
        client: m((r) => (r.ceiling ? cpuMicrosPerRow(r.ceiling.best.cpu, r.ceiling.best.rowsPerSecond)['bench'] : undefined)),
        cassandra: m((r) => (r.ceiling ? cpuMicrosPerRow(r.ceiling.best.cpu, r.ceiling.best.rowsPerSecond)['cassandra'] : undefined)),
      },
      idleCores: {
        cassandra: m((r) => r.idleCpu.coresByProcess['cassandra'], 2),
        processor: m((r) => r.idleCpu.coresByProcess['processor'], 2),
        machineBusy: m((r) => r.idleCpu.machineBusyCores, 2),
      },
      ceilingCassandraCores: m((r) => r.ceiling?.best.cpu.coresByProcess['cassandra'], 2),
      ceilingClientCores: m((r) => r.ceiling?.best.cpu.coresByProcess['bench'], 2),
      cassandraWritesPerEvent: m((r) => r.cassandraOpsPerEvent.totalWrites),
      cassandraReadsPerEvent: m((r) => r.cassandraOpsPerEvent.totalReads),
      processorCores: m((r) => r.throughputCpu.coresByProcess['processor'], 2),
      cassandraCores: m((r) => r.throughputCpu.coresByProcess['cassandra'], 2),
      kafkaCores: m((r) => r.throughputCpu.coresByProcess['kafka'], 2),
      benchCores: m((r) => r.throughputCpu.coresByProcess['bench'], 2),
      machineBusyCores: m((r) => r.throughputCpu.machineBusyCores, 2),
    },
    /** Every repeat of the headline figures, their median and range, interleaved per repeat: pipeline, then both ceilings. */
    acrossRepeats: ceilingComparison(results.map((r) => ({ repeat: r.repeat, pipelineEdgesPerSecond: r.throughput.edgesPerSecond, batchedEdgesPerSecond: r.batchedCeiling?.best.eventsPerSecond, unbatchedEdgesPerSecond: r.ceiling ? r.ceiling.best.rowsPerSecond / rowsPerEvent(r) : undefined }))),
    bySplitRecords: splitRecordVariants(args, allResults),
    perRepeat: allResults.map((r) => ({
      repeat: r.repeat,
      splitRecords: r.splitRecords,
      edgesPerSecond: r.throughput.edgesPerSecond,
      rowsPerSecond: r.throughput.rowsPerSecond,
      batchedCeilingEdgesPerSecond: r.batchedCeiling?.best.eventsPerSecond,
      batchedCeilingChunksInFlight: r.batchedCeiling?.best.chunksInFlight,
      batchedRatio: r.batchedRatio,
      ceilingRowsPerSecond: r.ceiling?.best.rowsPerSecond,
      ceilingConcurrency: r.ceiling?.best.concurrency,
      ratio: r.ratio,
      cpuEfficiencyRatio: cpuEfficiencyRatio(r, r.ceiling?.best),
      code: r.code.commit.slice(0, 12),
      latencyOfferedPerSecond: r.latency?.offeredPerSecond,
      latencySaturated: r.latency?.saturated,
      latencyP50Ms: r.latency?.allRowsMs.p50,
      latencyP99Ms: r.latency?.allRowsMs.p99,
      peakRssMiB: r.processor.peakRssMiB,
    })),
    /** Issue 27 §4: pipeline ≥ 0.75× the batched ceiling end to end. */
    targetRatio: 0.75,
  };
}

/**
 * Throughput with each --split-records variant, and per repeat its ratio to the run without
 * splits in the same repeat (paired: the variants of one repeat run back to back).
 */
function splitRecordVariants(args: BenchArgs, results: readonly RepeatResult[]) {
  if (args.splitRecords.length < 2) return undefined;
  const baseline = (repeat: number) => results.find((x) => x.repeat === repeat && x.splitRecords === 0);
  return args.splitRecords.map((n) => {
    const mine = results.filter((r) => r.splitRecords === n);
    const vsNone = mine.flatMap((r) => {
      const b = baseline(r.repeat);
      return b ? [round(r.throughput.rowsPerSecond / b.throughput.rowsPerSecond, 3)] : [];
    });
    return {
      splitRecords: n,
      rowsPerSecond: mine.map((r) => r.throughput.rowsPerSecond),
      medianRowsPerSecond: round(median(mine.map((r) => r.throughput.rowsPerSecond))),
      throughputVsNoSplits: vsNone,
      medianThroughputVsNoSplits: vsNone.length ? round(median(vsNone), 3) : undefined,
    };
  });
}

function printSummary(args: BenchArgs, s: ReturnType<typeof summarize>, results: readonly RepeatResult[]): void {
  const md = s.medians;
  const lines = [
    '',
    `bench:ingest — medians of ${s.repeats} repeat(s), ${fmt(args.events)} ADD_EDGE events each (${fmt(s.rowsPerRepeat ?? 0)} rows), ${s.cores} cores`,
    `  pipeline throughput     ${fmt(md.edgesPerSecond ?? NaN)} edges/s   ${fmt(md.rowsPerSecond ?? NaN)} rows/s   (first produce → last write visible: ${md.endToEndSeconds} s)`,
    `  drain after produce     ${fmt(md.drainAfterProducePerSecond ?? NaN)} edges/s (producer idle)`,
    `  event→visible latency   p50 ${md.latencyP50Ms ?? '-'} ms   p99 ${md.latencyP99Ms ?? '-'} ms   at ${fmt(md.latencyOfferedPerSecond ?? NaN)} edges/s offered (${Math.round((md.latencyOfferedShareOfThroughput ?? NaN) * 100)}% of throughput${md.latencySaturatedRepeats ? `; SATURATED in ${md.latencySaturatedRepeats} repeat(s)` : ''}); forward link p50 ${md.forwardLinkP50Ms ?? '-'} / p99 ${md.forwardLinkP99Ms ?? '-'} ms; ${md.latencySamples ?? '-'} samples, sampler ${md.samplerReadsPerSecond ?? '-'} reads/s`,
    `  degree recount lag      ${md.recountLagSeconds ?? '-'} s after the throughput phase until the recounter had taken the burst's marks (latency is measured after that)`,
    `  processor peak RSS      ${md.processorPeakRssMiB} MiB (VmHWM)   RSS at peak backlog: ${results.map((r) => `${r.processor.rssAtPeakBacklogMiB} MiB @ ${fmt(r.throughput.peakBacklog)}`).join(', ')}`,
    `  batched ceiling         ${fmt(md.batchedCeilingRowsPerSecond ?? NaN)} rows/s = ${fmt(md.batchedCeilingEdgesPerSecond ?? NaN)} edges/s (cassandra-driver in the pipeline's chunks and batches with the current-link read, ${md.batchedCeilingBestChunksInFlight ?? '-'} chunks in flight; per event ${md.batchedCeilingReadsPerEvent ?? '-'} reads, ${md.batchedCeilingWriteRequestsPerEvent ?? '-'} write requests)`,
    `  unbatched ceiling       ${fmt(md.ceilingRowsPerSecond ?? NaN)} rows/s (cassandra-driver, one INSERT per row, concurrency ${md.ceilingBestConcurrency ?? '-'})`,
    `  pipeline / batched      ${md.batchedRatio ?? '-'}   (target ≥ ${s.targetRatio}; CPU per row, batched ceiling ÷ pipeline: ${md.batchedCpuEfficiencyRatio ?? '-'}; a processor costing what the batched raw client costs would reach ${md.bareProcessorBound ?? '-'} here)`,
    `  pipeline / unbatched    ${md.ratio ?? '-'}   (drain-only rows/s ÷ unbatched ceiling: ${md.drainOnlyRatio ?? '-'}; CPU per row, unbatched ceiling ÷ pipeline: ${md.cpuEfficiencyRatio ?? '-'})`,
    ...everyRepeat(s.acrossRepeats),
    `  cores during throughput processor ${md.processorCores}, cassandra ${md.cassandraCores}, kafka ${md.kafkaCores}, bench (producer) ${md.benchCores}; machine busy ${md.machineBusyCores}/${s.cores}`,
    `  CPU µs per row          pipeline: processor ${md.pipelineCpuMicrosPerRow.processor}, cassandra ${md.pipelineCpuMicrosPerRow.cassandra}, kafka ${md.pipelineCpuMicrosPerRow.kafka}, producer ${md.pipelineCpuMicrosPerRow.producer}; batched ceiling: client ${md.batchedCeilingCpuMicrosPerRow.client}, cassandra ${md.batchedCeilingCpuMicrosPerRow.cassandra}; unbatched ceiling: client ${md.ceilingCpuMicrosPerRow.client}, cassandra ${md.ceilingCpuMicrosPerRow.cassandra} (cores during it: cassandra ${md.ceilingCassandraCores}, client ${md.ceilingClientCores})`,
    `  idle baseline           cassandra ${md.idleCores.cassandra} cores, idle processor ${md.idleCores.processor}, machine busy ${md.idleCores.machineBusy}/${s.cores} with no bench traffic (other users of the machine and stack)`,
    `  Cassandra ops per event pipeline: ${md.cassandraWritesPerEvent} partition writes, ${md.cassandraReadsPerEvent} reads; unbatched ceiling: ${results[0] ? round(results[0].throughput.rows / results[0].throughput.events, 2) : '-'} single-row writes`,
    `  per repeat: ${s.perRepeat.map((p) => `#${p.repeat}${s.bySplitRecords ? ` (${fmt(p.splitRecords)} splits)` : ''} ${fmt(p.edgesPerSecond)} edges/s ÷ batched ${fmt(p.batchedCeilingEdgesPerSecond ?? NaN)} = ${p.batchedRatio ?? '-'}, ${fmt(p.rowsPerSecond)} rows/s ÷ unbatched ${fmt(p.ceilingRowsPerSecond ?? NaN)} = ${p.ratio ?? '-'}`).join('; ')}`,
    ...(s.bySplitRecords ?? []).map(
      (v) => `  with ${fmt(v.splitRecords)} COMPLETED splits: ${v.rowsPerSecond.map((x) => fmt(x)).join(' / ')} rows/s (median ${fmt(v.medianRowsPerSecond)}); vs none in the same repeat ${v.throughputVsNoSplits.join(' / ')} (median ${v.medianThroughputVsNoSplits ?? '-'})`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Every repeat of the pipeline, both ceilings and both ratios, with median and range (max − min over the median). */
function everyRepeat(c: CeilingComparison): string[] {
  const line = (name: string, a: AcrossRepeats | undefined, digits = 0) =>
    a ? [`    ${name.padEnd(26)} ${a.repeats.map((x) => fmt(x, digits)).join(' / ')}   (median ${fmt(a.median, digits)}, range ${a.spreadPct}%)`] : [];
  return [
    '  every repeat (in run order: pipeline, then both ceilings)',
    ...line('pipeline edges/s', c.pipelineEdgesPerSecond),
    ...line('batched ceiling edges/s', c.batchedCeilingEdgesPerSecond),
    ...line('unbatched ceiling edges/s', c.unbatchedCeilingEdgesPerSecond),
    ...line('pipeline / batched', c.pipelineOverBatched, 3),
    ...line('pipeline / unbatched', c.pipelineOverUnbatched, 3),
  ];
}

function printProfile(p: ProfileSummary): void {
  const lines = [
    `processor CPU profile: ${p.seconds} s, main thread busy ${Math.round(p.busyShare * 100)}%`,
    `  self time by area: ${p.byArea.map((a) => `${a.area} ${a.pct}%`).join(', ')}`,
    `  top functions: ${p.topSelf.slice(0, 12).map((f) => `${f.fn} ${f.pct}%`).join('; ')}`,
    `  inclusive: ${p.inclusive.map((f) => `${f.fn} ${f.pct}%`).join('; ')}`,
  ];
  say(lines.join('\n'));
}

/**
 * Ceiling CPU per row (client + Cassandra) ÷ pipeline CPU per row (processor + Cassandra + Kafka + producer):
 * what the rows/s ratio would be if both paths had the machine to themselves and were CPU-bound. Per-process
 * CPU time is not taken by other users of the machine, so this is steadier than the rows/s ratio on a shared box.
 */
function cpuEfficiencyRatio(r: RepeatResult, c: CeilingCpu | undefined): number | undefined {
  if (!c || !seesServerCpu(r.throughputCpu) || !seesServerCpu(c.cpu)) return undefined;
  const pipeline = sum(cpuMicrosPerRow(r.throughputCpu, r.throughput.rowsPerSecond));
  const ceiling = sum(cpuMicrosPerRow(c.cpu, c.rowsPerSecond));
  return pipeline > 0 ? ceiling / pipeline : undefined;
}

/** A ceiling's CPU and its rate in the pipeline's rows (the answer's cells per event × events/s). */
interface CeilingCpu {
  readonly cpu: CpuReport;
  readonly rowsPerSecond: number;
}

const rowsPerEvent = (r: RepeatResult): number => r.throughput.rows / r.throughput.events;

/** The batched ceiling as rows/s of the pipeline's rows, so its CPU per row compares with the pipeline's. */
function batchedAsCeiling(r: RepeatResult): CeilingCpu | undefined {
  return r.batchedCeiling ? { cpu: r.batchedCeiling.best.cpu, rowsPerSecond: r.batchedCeiling.best.eventsPerSecond * rowsPerEvent(r) } : undefined;
}

/**
 * The CPU-bound ratio a pipeline would reach on this machine if its processor cost exactly what the
 * batched ceiling's raw-driver client costs per row and Cassandra did exactly that ceiling's work: the end-to-end window
 * still carries the producer's and the broker's CPU on the same cores. Ceiling CPU per row ÷ (that +
 * producer + Kafka CPU per row). An upper bound for any processor, not a measurement of ours.
 */
function bareProcessorBound(r: RepeatResult, c: CeilingCpu | undefined): number | undefined {
  if (!c || !seesServerCpu(r.throughputCpu) || !seesServerCpu(c.cpu)) return undefined;
  const ceiling = sum(cpuMicrosPerRow(c.cpu, c.rowsPerSecond));
  const pipeline = cpuMicrosPerRow(r.throughputCpu, r.throughput.rowsPerSecond);
  const transport = (pipeline['bench'] ?? 0) + (pipeline['kafka'] ?? 0) + (pipeline['registry'] ?? 0);
  return ceiling > 0 ? ceiling / (ceiling + transport) : undefined;
}

/**
 * Both CPU ratios need the Cassandra and Kafka processes' CPU, which the bench reads only for the
 * local stack it can see (`BenchStack.serverPids`); for an external one they would silently leave it out.
 */
function seesServerCpu(cpu: CpuReport): boolean {
  return cpu.coresByProcess['cassandra'] !== undefined && cpu.coresByProcess['kafka'] !== undefined;
}

function sum(x: Record<string, number>): number {
  return Object.values(x).reduce((a, b) => a + b, 0);
}

/** CPU microseconds per row for each process: cores used ÷ rows per second. */
function cpuMicrosPerRow(cpu: CpuReport, rowsPerSecond: number): Record<string, number> {
  return Object.fromEntries(Object.entries(cpu.coresByProcess).filter(([, c]) => c > 0).map(([name, cores]) => [name, round((cores / rowsPerSecond) * 1e6, 1)]));
}

/** At most `n` evenly spaced samples (first and last kept). */
function thin<T>(xs: readonly T[], n: number): T[] {
  if (xs.length <= n) return [...xs];
  return Array.from({ length: n }, (_, i) => xs[Math.round((i * (xs.length - 1)) / (n - 1))] as T);
}

main().catch((e: unknown) => {
  status.done();
  console.error(`bench:ingest failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exitCode = 1;
});
