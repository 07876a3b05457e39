#!/usr/bin/env node
// bench:mixed — LinkBench's link-only mix against edgestream, beside the raw cassandra-driver on the same Cassandra. See bench/mixed/README.md.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import cassandra from 'cassandra-driver';
import { connectBenchClients } from '../shared/benchClients.ts';
import { PROCESSOR_NODE_FLAGS } from '../../cli/processorNodeFlags.ts';
import { endpointsToEnv } from '../../stack/endpoints.ts';
import { resolveStack } from '../../stack/resolveStack.ts';
import { createEdgeProducer } from '../../streams/producer/index.ts';
import { createAvroSerde } from '../../streams/serde/index.ts';
import { topicName } from '../../streams/topics/index.ts';
import { edgePipelineGroups } from '../../streams/topology/createEdgePipeline.ts';
import { createBenchRun, newRunId, type BenchRun } from '../ingest/benchRun.ts';
import { endOffsetTotal, waitForStableGroup } from '../ingest/kafkaOffsets.ts';
import { spawnProcessorChild, type ProcessorChild } from '../ingest/processorChild.ts';
import { createStatusLine } from '../ingest/progressLine.ts';
import { fmt, round } from '../ingest/stats.ts';
import { runThroughputPhase } from '../ingest/throughputPhase.ts';
import { getText } from '../reads/httpGet.ts';
import { startServeChild, type ServeChild } from '../reads/serveChild.ts';
import { dropKeyspace } from '../shared/benchCleanup.ts';
import { codeVersion, collectVersions, machine, REPO_ROOT, serverPidsOf } from '../shared/benchEnvironment.ts';
import { jfrNote, jfrUnavailable, withJfr, type JfrProfile } from '../shared/cassandraJfr.ts';
import { cpuNote, withCpu } from '../shared/measuredCpu.ts';
import { watchThreadPools } from '../shared/threadPoolCpu.ts';
import { opsDelta, perEvent, tableOps } from '../ingest/cassandraOps.ts';
import { compareAnswers } from './answerCheck.ts';
import { DEFAULT_IDS, DEFAULT_SECONDS, parseMixedArgs, USAGE, type MixedBenchArgs } from './args.ts';
import { sampleRanks, waitForCountsToSettle } from './countSettle.ts';
import { carriesMutation, createEdgestreamTarget } from './edgestreamTarget.ts';
import { createLinkGraph, vertexId, type LinkGraph } from './linkGraph.ts';
import { createProcessPause } from './pauseProcesses.ts';
import { planPostgres, startPostgresAnchor, type PostgresAnchor, type PostgresPlan } from './postgresAnchor.ts';
import type { PostgresServer } from './postgresServer.ts';
import type { PostgresLinkStore } from './postgresTarget.ts';
import { createRawLinkStore } from './rawLinkStore.ts';
import { waitForRepairDrain } from './repairDrain.ts';
import { buildResult, printSummary, type MixedFigures, type RepeatBlocks } from './report.ts';
import { blockOrder, runRequestBlock, type BlockResult, type SystemName } from './requestBlock.ts';
import { labelValue } from './serverTimings.ts';
import { createVisibilityProbe } from './visibilityProbe.ts';

const EDGE_TYPE = 'link';
const status = createStatusLine();
const say = (line: string) => status.log(line);

/** What a signal or a failure must undo: continue paused processes, stop the children and the PostgreSQL server, drop the keyspaces and topics. */
const live: { pause?: ReturnType<typeof createProcessPause>; server?: ServeChild; child?: ProcessorChild; postgres?: PostgresServer; pgStore?: PostgresLinkStore; run?: BenchRun; rawKeyspace?: string; keep?: boolean } = {};
let cleaning: Promise<void> | undefined;
const cleanup = (endpoints: Parameters<typeof dropKeyspace>[0]) =>
  (cleaning ??= (async () => {
    live.pause?.resume();
    await live.server?.stop().catch(() => undefined);
    await live.child?.stop(15_000).catch(() => undefined);
    live.postgres?.resume();
    await live.pgStore?.close().catch(() => undefined);
    await live.postgres?.stop().catch((e: unknown) => say(`postgres stop: ${String(e)}`));
    if (live.keep) return say(`--keep: keyspaces ${live.run?.config.cassandra.keyspace} and ${live.rawKeyspace}, topics ${live.run?.config.topics.prefix}* left in place${live.postgres ? `; PostgreSQL's data in ${live.postgres.dataDir} (server stopped)` : ''}`);
    await live.run?.cleanup().catch((e: unknown) => say(`cleanup: ${String(e)}`));
    if (live.rawKeyspace) await dropKeyspace(endpoints, live.rawKeyspace).catch((e: unknown) => say(`drop ${live.rawKeyspace}: ${String(e)}`));
  })());

async function main(): Promise<void> {
  const args = parseMixedArgs(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  const started = new Date();
  const postgresPlan = planPostgres(args.postgres);
  if ('skipped' in postgresPlan) say(`postgres anchor: not run (${postgresPlan.skipped})`);
  const stack = await resolveStack({ log: (l) => say(`[stack] ${l}`), keepRunning: false });
  const { endpoints } = stack;
  const onSignal = (signal: NodeJS.Signals) => {
    say(`\n${signal}: cleaning up…`);
    void cleanup(endpoints).finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const { kafka, registry, admin } = await connectBenchClients(endpoints, 'edgestream-bench-mixed');
  await admin.connect();
  const cql = new cassandra.Client({ contactPoints: [...endpoints.cassandraContactPoints], localDataCenter: endpoints.cassandraLocalDc, encoding: { useBigIntAsLong: true }, socketOptions: { readTimeout: 30_000 } });
  await cql.connect();
  const agent = new http.Agent({ keepAlive: true, maxSockets: args.clients + 8 });
  try {
    const versions = await collectVersions(endpoints, cql);
    const code = codeVersion();
    say(`bench:mixed — ${fmt(args.ids)} ids, ${args.clients} clients × ${args.seconds} s × ${args.repeats} repeats; stack ${endpoints.source}: Kafka ${versions.kafka}, Cassandra ${versions.cassandra}; code ${code.commit.slice(0, 12)}${code.cleanTree ? '' : ` (tree not clean${code.dirtyOutsideBench.length ? `: ${code.dirtyOutsideBench.length} files outside bench/` : ''})`}`);

    // A paused consumer must not be dropped from its group: the session outlasts a raw block.
    const sessionTimeoutMs = Math.min(1_800_000, Math.max(30_000, (args.seconds + args.warmupSeconds + 60) * 1000));
    const run = await createBenchRun({ admin, registry, endpoints, id: newRunId('m'), configInput: { edgeTypes: [{ name: EDGE_TYPE }], topics: { partitions: args.partitions }, runtime: { ...args.runtime, sessionTimeoutMs } }, log: say });
    live.run = run;
    live.keep = args.keep;
    live.rawKeyspace = `${run.config.cassandra.keyspace}_raw`;
    say(`run ${run.id}: topics ${run.config.topics.prefix}*, keyspaces ${run.config.cassandra.keyspace} (edgestream) and ${live.rawKeyspace} (raw anchor); logs in ${run.dir}`);

    const child = spawnProcessorChild({
      repoRoot: REPO_ROOT,
      entry: 'bin/edgestream.js',
      args: ['--config', run.configFile, 'run'],
      nodeArgs: args.cpuProfDir ? [...PROCESSOR_NODE_FLAGS, '--cpu-prof', `--cpu-prof-dir=${path.resolve(args.cpuProfDir)}`] : PROCESSOR_NODE_FLAGS,
      env: { ...process.env, ...endpointsToEnv(endpoints), LOG_LEVEL: 'info' },
      logFile: path.join(run.dir, 'processor.log'),
      // Each service in its own scheduling group, as the stack's servers and PostgreSQL are (cleanup stops both).
      ownSession: true,
    });
    live.child = child;
    await child.ready;
    const stableMs = await waitForStableGroup(admin, run.fanOutGroup, 60_000);
    const server = await startServeChild(run.config, run.dir, 'mixed', args.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.cpuProfDir)}`] : [], { ownSession: true });
    live.server = server;
    say(`processors: pid ${child.pid} (every stage; group stable after ${stableMs} ms); edgestream serve: pid ${server.pid} at ${server.url}`);
    const pids = { ...serverPidsOf(endpoints), processor: child.pid, server: server.pid };
    const noJfr = args.cassandraJfrDir === undefined ? undefined : jfrUnavailable(serverPidsOf(endpoints)['cassandra']);
    if (noJfr !== undefined) throw new Error(`--cassandra-jfr: Cassandra cannot be recorded: ${noJfr}`);

    const graph = createLinkGraph({ ids: args.ids, meanDegree: args.meanDegree, degreeExponent: args.degreeExponent, seed: args.seed, loadTime: BigInt(Date.now()) * 1_000n, timeSpanMicros: 86_400_000_000n });
    const producer = createEdgeProducer({ kafka, serde: createAvroSerde({ registry }), config: run.config });
    try {
      const figures = await measure(args, { graph, run, child, server, pids, producer, cql, agent, admin, postgresPlan });
      const result = buildResult({ args, started, versions, code, config: run.config, figures, machine: machine() });
      printSummary(result);
      const small = args.ids < DEFAULT_IDS || args.seconds < DEFAULT_SECONDS;
      const out = path.resolve(REPO_ROOT, args.out ?? (args.rate > 0 ? 'bench/results/mixed-rate-latest.json' : small ? 'bench/results/mixed-small.json' : 'bench/results/mixed-latest.json'));
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, `${JSON.stringify(result, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`);
      say(`result JSON: ${path.relative(REPO_ROOT, out)}`);
    } finally {
      await producer.close().catch(() => undefined);
    }
  } finally {
    status.done();
    await cleanup(endpoints);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    agent.destroy();
    await admin.disconnect().catch(() => undefined);
    await cql.shutdown().catch(() => undefined);
    await stack.release();
  }
}

async function measure(
  args: MixedBenchArgs,
  x: {
    graph: LinkGraph;
    run: BenchRun;
    child: ProcessorChild;
    server: ServeChild;
    pids: Record<string, number | undefined>;
    producer: ReturnType<typeof createEdgeProducer>;
    cql: cassandra.Client;
    agent: http.Agent;
    admin: Awaited<ReturnType<typeof connectBenchClients>>['admin'];
    postgresPlan: PostgresPlan;
  },
): Promise<MixedFigures> {
  const { graph, run, child, producer } = x;
  const keyspace = run.config.cassandra.keyspace;

  say(`\n── bulk load: ${fmt(graph.totalLinks)} links over ${fmt(graph.spec.ids)} ids (max out-degree ${fmt(graph.maxDegree)}) through Kafka and the processors ──`);
  const links = graph.allLinks();
  const repair = edgePipelineGroups(run.config).find((g) => g.stage === 'repair') as { group: string; topic: string };
  const loadStart = performance.now();
  const load = await withCpu({ ...x.pids, bench: process.pid }, async () => {
    const fanOut = await runThroughputPhase({
      admin: x.admin,
      producer,
      child,
      groupId: run.fanOutGroup,
      topic: run.inputTopic,
      events: graph.totalLinks,
      publish: () => {
        const l = links.next().value as NonNullable<ReturnType<typeof links.next>['value']>;
        return producer.addEdge({ type: EDGE_TYPE, src: l.src, dst: l.dst, edgeTime: l.time, data: l.data }).then(() => 1);
      },
      status,
      label: 'bulk load',
    });
    const repairs = await waitForRepairDrain({ admin: x.admin, group: repair.group, topic: repair.topic, timeoutMs: args.settleTimeoutSeconds * 1000, status, label: 'bulk load' });
    const visibleSeconds = round((repairs.drainedAt - loadStart) / 1000, 2);
    return { ...fanOut, repairs, visibleSeconds, visibleLinksPerSecond: Math.round(graph.totalLinks / visibleSeconds) };
  });
  const drainedAt = load.repairs.drainedAt;
  say(`bulk load: produced at ${fmt(load.produceEventsPerSecond)} links/s; fan-out caught up after ${load.endToEndSeconds} s (${fmt(load.edgesPerSecond)} links/s, ${fmt(load.drainAfterProduce.perSecond)}/s after the producer finished); ${fmt(load.repairs.records)} events went through the repair topic${load.repairs.drained ? '' : ' (NOT all repaired when the bench gave up)'}; every link visible after ${load.visibleSeconds} s (${fmt(load.visibleLinksPerSecond)} links/s); ${cpuNote(load.cpu)}`);

  const ranks = sampleRanks(graph.spec.ids, args.countSample, args.seed);
  const roundsBefore = child.recountRounds.length;
  const jfr = cassandraRecorder(args.cassandraJfrDir, x.pids['cassandra']);
  const ops0 = await tableOps(x.cql, keyspace);
  const pools = x.pids['cassandra'] === undefined ? undefined : watchThreadPools(x.pids['cassandra']);
  const { result: settle, profile: settleProfile } = await jfr('count-settle', () => withCpu({ ...x.pids, bench: process.pid }, () => waitForCountsToSettle({
    cql: x.cql,
    keyspace,
    edgeType: EDGE_TYPE,
    vertices: ranks.map((v) => ({ id: vertexId(v), published: graph.degree(v) })),
    drainedAt,
    timeoutMs: args.settleTimeoutSeconds * 1000,
    pollMs: 2_000,
    status,
    label: 'count settle',
  })));
  const settlePools = pools?.stop();
  const rounds = child.recountRounds.slice(roundsBefore);
  const recountMarks = rounds.reduce((s, r) => s + r.marks, 0);
  // What the settle cost per mark taken: the store's operations by table and Cassandra's CPU by thread pool.
  const perMark = {
    cassandraOps: perEvent(opsDelta(ops0, await tableOps(x.cql, keyspace)), Math.max(1, recountMarks)),
    ...(settlePools ? { cassandraCpuUsByThreadPool: Object.fromEntries(Object.entries(settlePools).map(([pool, cores]) => [pool, round((cores * settle.cpu.wallSeconds * 1e6) / Math.max(1, recountMarks), 1)])) } : {}),
  };
  const counts = { ...settle, recountRounds: rounds.length, recountMarks, perMark, ...(settleProfile ? { cassandraProfile: settleProfile } : {}) };
  if (settleProfile) say(`count settle: ${jfrNote(settleProfile)}`);
  say(`counts: ${settle.settled ? `every one of ${settle.sampled} sampled degrees exact ${settle.secondsAfterDrain} s after the drain` : `NOT settled after ${settle.secondsAfterDrain} s: ${settle.wrongAtEnd}/${settle.sampled} still wrong, e.g. ${JSON.stringify(settle.examples)}`}; ${counts.recountRounds} recount rounds, ${fmt(counts.recountMarks)} marks; ${cpuNote(settle.cpu)}; per mark: ${perMark.cassandraOps.totalReads} reads and ${perMark.cassandraOps.totalWrites} partition writes${settle.linkCountMismatches ? `; ${settle.linkCountMismatches} link partitions did NOT hold the published links` : ''}`);

  say(`\n── raw anchor: ${live.rawKeyspace} loaded with the same links ──`);
  const raw = await createRawLinkStore(x.cql, live.rawKeyspace as string);
  const rawLoad = await withCpu({ ...x.pids, bench: process.pid }, () => raw.load(graph, { concurrency: args.rawLoadConcurrency, status, label: 'raw load' }));
  status.done(`raw load: ${fmt(rawLoad.links)} links in ${rawLoad.seconds} s (${fmt(rawLoad.linksPerSecond)} links/s at ${rawLoad.concurrency} in flight); ${cpuNote(rawLoad.cpu)}`);

  const pause = createProcessPause([child.pid, x.server.pid]);
  live.pause = pause;
  let pg: PostgresAnchor | undefined;
  if ('bins' in x.postgresPlan) {
    say(`\n── postgres anchor: its own server, loaded with the same links (edgestream paused meanwhile) ──`);
    pause.pause();
    pg = await startPostgresAnchor({
      bins: x.postgresPlan.bins,
      dir: run.dir,
      graph,
      clients: args.clients,
      pids: x.pids,
      status,
      onServer: (s) => {
        live.postgres = s.server;
        live.pgStore = s.store;
      },
    });
    pause.resume();
  }

  const probe = createVisibilityProbe({ every: Math.max(1, Math.round(1 / args.visibleShare)), sees: carriesMutation(x.server.url, EDGE_TYPE, x.agent) });
  const edgestream = createEdgestreamTarget({ baseUrl: x.server.url, edgeType: EDGE_TYPE, agent: x.agent, producer, onWrite: (w) => probe.onWrite(w) });
  const sampled = ranks.slice(0, args.answerSample).map((v) => ({ src: vertexId(v), dsts: Array.from({ length: Math.min(3, graph.degree(v)) }, (_, j) => graph.linkAt(v, j).dst) }));
  const answers = await compareAnswers({ a: edgestream, b: raw.target, vertices: sampled, compareCounts: settle.settled });
  const differences = answers.pageDifferences + answers.multigetDifferences + answers.countDifferences;
  say(`answers before the mix (${answers.vertices} vertices): ${differences === 0 ? 'the same on both systems' : `${answers.pageDifferences} page, ${answers.multigetDifferences} multi-get, ${answers.countDifferences} count DIFFERENCES: ${answers.examples.join('; ')}`}${settle.settled ? '' : ' (counts not compared: not settled)'}`);
  const pgAnswers = pg && (await compareAnswers({ a: pg.store.target, b: raw.target, vertices: sampled, compareCounts: true }));
  if (pgAnswers) {
    const d = pgAnswers.pageDifferences + pgAnswers.multigetDifferences + pgAnswers.countDifferences;
    say(`answers before the mix, postgres vs raw (${pgAnswers.vertices} vertices, counts included): ${d === 0 ? 'the same' : `${pgAnswers.pageDifferences} page, ${pgAnswers.multigetDifferences} multi-get, ${pgAnswers.countDifferences} count DIFFERENCES: ${pgAnswers.examples.join('; ')}`}`);
  }

  const systems: SystemName[] = pg ? ['edgestream', 'raw', 'postgres'] : ['edgestream', 'raw'];
  say(`\n── request phase: ${args.clients} clients${args.rate > 0 ? ` offering ${fmt(args.rate)} ops/s together (Poisson arrivals)` : ''}, ${args.warmupSeconds} + ${args.seconds} s per block, ${systems.join(', ')} in rotating order; edgestream ${args.rawBeside === 'paused' ? 'paused (SIGSTOP)' : 'running'} during the anchors' blocks${pg ? ', postgres paused (SIGSTOP) outside its own' : ''} ──`);
  const pids = { ...x.pids, bench: process.pid };
  const repeats: RepeatBlocks[] = [];
  for (let r = 1; r <= args.repeats; r++) {
    const order = blockOrder(systems, r);
    const blocks: Partial<Record<SystemName, BlockResult>> = {};
    for (const system of order) {
      if (system !== 'edgestream' && args.rawBeside === 'paused') pause.pause();
      else pause.resume();
      if (system === 'postgres') pg?.server.resume();
      else pg?.server.pause();
      if (child.exitedEarly()) throw new Error(`the processor child exited:\n${child.tail().join('\n')}`);
      const label = `[r${r} ${system}]`;
      const recorded = r === 1 && system !== 'postgres' ? jfr : unrecorded;
      const { result: block, profile: blockProfile } = await recorded(`r${r}-${system}`, () => runRequestBlock({
        system,
        target: system === 'edgestream' ? edgestream : system === 'raw' ? raw.target : (pg as PostgresAnchor).store.target,
        graph,
        repeat: r,
        seed: args.seed,
        accessExponent: args.accessExponent,
        clients: args.clients,
        rate: args.rate,
        warmupSeconds: args.warmupSeconds,
        seconds: args.seconds,
        pids,
        threadPools: { cassandra: x.pids['cassandra'], kafka: x.pids['kafka'] },
        ...(system === 'postgres' ? { trees: { postgres: (pg as PostgresAnchor).server.pid } } : { cassandra: { cql: x.cql, keyspace: system === 'edgestream' ? run.config.cassandra.keyspace : raw.keyspace } }),
        ...(system === 'edgestream' ? { probe, scrapeServer: () => getText(x.agent, `${x.server.url}/metrics`) } : {}),
        status,
        label,
      }));
      const b = blockProfile ? { ...block, cassandraProfile: blockProfile } : block;
      if (blockProfile) say(`${label} ${jfrNote(blockProfile)}`);
      blocks[system] = b;
      say(
        `${label} ${fmt(b.opsPerSecond, 1)} ops/s (${fmt(b.ops)} ops, ${b.errors} errors${b.errors ? `: ${Object.values(b.byKind).find((k) => k.firstError)?.firstError}` : ''}); GET_LINKS_LIST p50 ${b.byKind.GET_LINKS_LIST.p50Ms} / p99 ${b.byKind.GET_LINKS_LIST.p99Ms} ms${b.byKind.GET_LINKS_LIST.service ? ` (from when sent ${b.byKind.GET_LINKS_LIST.service.p50Ms} / ${b.byKind.GET_LINKS_LIST.service.p99Ms})` : ''}; ADD_LINK p50 ${b.byKind.ADD_LINK.p50Ms} / p99 ${b.byKind.ADD_LINK.p99Ms} ms${b.byKind.ADD_LINK.service ? ` (from when sent ${b.byKind.ADD_LINK.service.p50Ms} / ${b.byKind.ADD_LINK.service.p99Ms})` : ''}${b.visibility ? `; write → visible p50 ${b.visibility.p50Ms} / p99 ${b.visibility.p99Ms} ms (${b.visibility.samples} samples)` : ''}${b.server ? `; server's own mean per request: ${b.server.httpMs.filter((h) => labelValue(h.labels, 'status') === '200' && labelValue(h.labels, 'route') !== '/metrics').map((h) => `${labelValue(h.labels, 'route')} ${h.mean} ms${h.over10Ms === undefined ? '' : ` (${round(h.over10Ms * 100, 2)} % over 10 ms, ${round((h.over50Ms ?? NaN) * 100, 2)} % over 50)`}`).join(', ')}` : ''}${b.server ? `; server GC ${b.server.gcMs.map((g) => `${labelValue(g.labels, 'kind')} ${g.count} × ${g.mean} ms`).join(', ')}; server event loop late by p99 ${b.server.loopDelayMs.p99} / max ${b.server.loopDelayMs.max} ms` : ''}; bench event loop late by p99 ${b.benchLoopDelayMs.p99} / max ${b.benchLoopDelayMs.max} ms; cores ${Object.entries(b.cpu.coresByProcess).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${v}`).join(', ')}; machine busy ${b.cpu.machineBusyCores}/${b.cpu.machineCores}`,
      );
    }
    repeats.push({ repeat: r, order, edgestream: blocks.edgestream as BlockResult, raw: blocks.raw as BlockResult, ...(blocks.postgres ? { postgres: blocks.postgres } : {}) });
  }
  pause.resume();
  if (pg) {
    // Up only for its phases: stopped as soon as its last block is done.
    pg.server.resume();
    await pg.store.close();
    await pg.server.stop();
  }
  const topicRecords = (name: 'edge-mutations.repair' | 'edge-mutations.dlq') => endOffsetTotal(x.admin, topicName(run.config.topics.prefix, name)).catch(() => -1);
  const pipeline = { warnings: child.counts.warn, errors: child.counts.error + child.counts.fatal, problems: child.problems(), repairRecords: await topicRecords('edge-mutations.repair'), dlqRecords: await topicRecords('edge-mutations.dlq') };
  const postgres = pg && pgAnswers ? { postgres: { settings: pg.server.settings, load: pg.load, answers: pgAnswers } } : { postgresSkipped: 'skipped' in x.postgresPlan ? x.postgresPlan.skipped : 'not run' };
  return { graph: { ids: graph.spec.ids, links: graph.totalLinks, maxDegree: graph.maxDegree, meanDegree: args.meanDegree }, load, counts, rawLoad, answers, ...postgres, repeats, pipeline };
}

type Recorder = <T>(phase: string, fn: () => Promise<T>) => Promise<{ result: T; profile?: JfrProfile }>;

const unrecorded: Recorder = async (_phase, fn) => ({ result: await fn() });

/** With --cassandra-jfr, a phase runs under a Flight Recording of Cassandra (`<dir>/<phase>.jfr`) and returns its profile. */
function cassandraRecorder(dir: string | undefined, pid: number | undefined): Recorder {
  if (dir === undefined || pid === undefined) return unrecorded;
  return async (phase, fn) => withJfr(pid, path.join(path.resolve(dir), `${phase}.jfr`), fn);
}

main().catch((e: unknown) => {
  status.done();
  console.error(`bench:mixed failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exitCode = 1;
});
