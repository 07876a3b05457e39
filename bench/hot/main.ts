#!/usr/bin/env node
// bench:hot — one source with many links against the same links spread over many sources, through real processors. See bench/hot/README.md.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import cassandra from 'cassandra-driver';
import { connectBenchClients } from '../shared/benchClients.ts';
import { cassandraStoreConfigFor } from '../../cli/openStore.ts';
import { PROCESSOR_NODE_FLAGS } from '../../cli/processorNodeFlags.ts';
import { createEdgeReader, type EdgeReader } from '../../reads/index.ts';
import { createServingPartitions, type ServingPartitions } from '../../reads/split/createServingPartitions.ts';
import { createCassandraStore } from '../../sinks/cassandra/index.ts';
import { EdgeOp, type EdgeMutation } from '../../schemas/index.ts';
import { endpointsToEnv, type StackEndpoints } from '../../stack/endpoints.ts';
import { resolveStack } from '../../stack/resolveStack.ts';
import { createEdgeProducer } from '../../streams/producer/index.ts';
import { createAvroSerde } from '../../streams/serde/index.ts';
import { topicName } from '../../streams/topics/index.ts';
import { resolveTuning } from '../../streams/runtime/runtimeTuning.ts';
import { edgePipelineGroups } from '../../streams/topology/createEdgePipeline.ts';
import { createBenchRun, newRunId, type BenchRun } from '../ingest/benchRun.ts';
import { endOffsetTotal, waitForStableGroup } from '../ingest/kafkaOffsets.ts';
import { spawnProcessorChild, type ProcessorChild } from '../ingest/processorChild.ts';
import { createStatusLine } from '../ingest/progressLine.ts';
import { fmt, round } from '../ingest/stats.ts';
import { runThroughputPhase } from '../ingest/throughputPhase.ts';
import { benchTables } from '../ingest/workload.ts';
import { waitForRepairDrain } from '../mixed/repairDrain.ts';
import { codeVersion, collectVersions, machine, REPO_ROOT, serverPidsOf } from '../shared/benchEnvironment.ts';
import { cpuNote, withCpu } from '../shared/measuredCpu.ts';
import { runRawIngest } from '../shared/rawIngest.ts';
import { withRawKeyspace } from '../shared/rawKeyspace.ts';
import { dropKeyspace } from '../shared/benchCleanup.ts';
import { writeResultJson } from '../shared/writeResultJson.ts';
import { DEFAULT_LINKS, parseHotArgs, USAGE, type HotBenchArgs } from './args.ts';
import { cpuMicrosPerLink, summarise, type PhaseFigures, type RawPhaseFigures, type Variant } from './figures.ts';
import { degreeOf, linkAt, linkWorkload, newestPage, sampleSources, sourceId, timeStride } from './hotWorkload.ts';
import { buildResult, printSummary } from './report.ts';
import { checkSources } from './sourceCheck.ts';

const EDGE_TYPE = 'link';
const status = createStatusLine();
const say = (line: string) => status.log(line);

/** What a signal or a failure must undo: stop the child and the reader, delete the run's topics and keyspace. */
const live: { child?: ProcessorChild; run?: BenchRun; serving?: ServingPartitions; closeStore?: () => Promise<void>; keep?: boolean; rawKeyspace?: { endpoints: StackEndpoints; name: string } } = {};
let cleaning: Promise<void> | undefined;
const cleanup = () =>
  (cleaning ??= (async () => {
    live.serving?.stop();
    await live.closeStore?.().catch(() => undefined);
    await live.child?.stop(15_000).catch(() => undefined);
    // A raw phase drops its keyspace when it ends; one a signal interrupted is dropped here.
    if (live.rawKeyspace) await dropKeyspace(live.rawKeyspace.endpoints, live.rawKeyspace.name).catch(() => undefined);
    if (live.keep) return say(`--keep: keyspace ${live.run?.config.cassandra.keyspace}, topics ${live.run?.config.topics.prefix}* left in place`);
    await live.run?.cleanup().catch((e: unknown) => say(`cleanup: ${String(e)}`));
  })());

type Admin = Awaited<ReturnType<typeof connectBenchClients>>['admin'];

async function main(): Promise<void> {
  const args = parseHotArgs(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  const started = new Date();
  const stack = await resolveStack({ log: (l) => say(`[stack] ${l}`), keepRunning: false });
  const { endpoints } = stack;
  const onSignal = (signal: NodeJS.Signals) => {
    say(`\n${signal}: cleaning up…`);
    void cleanup().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const { kafka, registry, admin } = await connectBenchClients(endpoints, 'edgestream-bench-hot');
  await admin.connect();
  const cql = new cassandra.Client({ contactPoints: [...endpoints.cassandraContactPoints], localDataCenter: endpoints.cassandraLocalDc });
  await cql.connect();
  try {
    const versions = await collectVersions(endpoints, cql);
    const code = codeVersion();
    say(`bench:hot — ${fmt(args.links)} links per phase, spread over ${fmt(Math.ceil(args.links / args.fanoutDegree))} sources in the spread variant, ${args.repeats} repeats; stack ${endpoints.source}: Kafka ${versions.kafka}, Cassandra ${versions.cassandra}; code ${code.commit.slice(0, 12)}${code.cleanTree ? '' : ` (tree not clean${code.dirtyOutsideBench.length ? `: ${code.dirtyOutsideBench.length} files outside bench/` : ''})`}`);

    const run = await createBenchRun({ admin, registry, endpoints, id: newRunId('h'), configInput: { edgeTypes: [{ name: EDGE_TYPE }], topics: { partitions: args.partitions } }, log: say });
    live.run = run;
    live.keep = args.keep;
    say(`run ${run.id}: topics ${run.config.topics.prefix}*, keyspace ${run.config.cassandra.keyspace}; logs in ${run.dir}`);
    const child = spawnProcessorChild({
      repoRoot: REPO_ROOT,
      entry: 'bin/edgestream.js',
      args: ['--config', run.configFile, 'run'],
      nodeArgs: PROCESSOR_NODE_FLAGS,
      env: { ...process.env, ...endpointsToEnv(endpoints), LOG_LEVEL: 'info' },
      logFile: path.join(run.dir, 'processor.log'),
    });
    live.child = child;
    await child.ready;
    const stableMs = await waitForStableGroup(admin, run.fanOutGroup, 60_000);
    say(`processors: pid ${child.pid} (every stage; group stable after ${stableMs} ms)`);

    const store = await createCassandraStore(cassandraStoreConfigFor(endpoints, run.config));
    live.closeStore = () => store.close();
    const serving = createServingPartitions(store, run.config);
    live.serving = serving;
    await serving.start();
    const reader = createEdgeReader({ partitions: serving.partitions, config: run.config });
    const producer = createEdgeProducer({ kafka, serde: createAvroSerde({ registry }), config: run.config });
    try {
      const pids = { ...serverPidsOf(endpoints), processor: child.pid };
      const phases: PhaseFigures[] = [];
      const raw: RawPhaseFigures[] = [];
      for (let r = 1; r <= args.repeats; r++) {
        // The raw phase takes turns at the ends, hot and spread alternate: no phase always runs on the freshest box.
        const order: Phase[] = r % 2 === 1 ? ['hot', 'spread', 'raw'] : ['raw', 'spread', 'hot'];
        for (const phase of order) {
          if (phase === 'raw') {
            if (args.rawChunksInFlight > 0) raw.push(await measureRawPhase(args, { repeat: r, run, endpoints, pids }));
          } else phases.push(await measurePhase(args, { variant: phase, repeat: r, run, child, admin, producer, reader, pids }));
        }
      }
      const summary = summarise(phases, raw);
      const pipeline = { warnings: child.counts.warn, errors: child.counts.error + child.counts.fatal, problems: child.problems() };
      const result = buildResult({ args, started, versions, code, config: run.config, machine: machine(), phases, raw, summary, pipeline });
      printSummary(result);
      say(`result JSON: ${writeResultJson(args.out ?? (args.links >= DEFAULT_LINKS ? 'bench/results/hot-latest.json' : 'bench/results/hot-small.json'), result)}`);
    } finally {
      await producer.close().catch(() => undefined);
    }
  } finally {
    status.done();
    await cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await admin.disconnect().catch(() => undefined);
    await cql.shutdown().catch(() => undefined);
    await stack.release();
  }
}

/** One variant in one repeat: publish, drain (repairs included) under CPU accounting, then check the sampled sources. */
async function measurePhase(
  args: HotBenchArgs,
  x: { variant: Variant; repeat: number; run: BenchRun; child: ProcessorChild; admin: Admin; producer: ReturnType<typeof createEdgeProducer>; reader: EdgeReader; pids: Record<string, number | undefined> },
): Promise<PhaseFigures> {
  const { run, admin, producer } = x;
  const label = `[r${x.repeat} ${x.variant}]`;
  const w = linkWorkload({ links: args.links, ...(x.variant === 'spread' ? { fanoutDegree: args.fanoutDegree } : {}), prefix: `r${x.repeat}${x.variant}-`, baseTime: BigInt(Date.now() - 86_400_000) * 1000n });
  const checked = sampleSources(w, x.variant === 'hot' ? 1 : args.checkSources).map((s) => ({ id: sourceId(w, s), published: degreeOf(w, s), newest: newestPage(w, s, args.pageLimit) }));
  const repair = edgePipelineGroups(run.config).find((g) => g.stage === 'repair') as { group: string; topic: string };
  const dlqTopic = topicName(run.config.topics.prefix, 'edge-mutations.dlq');
  const [repairsBefore, dlqBefore] = [await endOffsetTotal(admin, repair.topic), await endOffsetTotal(admin, dlqTopic)];
  const stride = timeStride(w.links);
  say(`\n── ${label} ${fmt(w.links)} ADD_EDGE from ${fmt(w.sources)} source${w.sources === 1 ? '' : 's'} ──`);

  const t0 = performance.now();
  const drain = await withCpu(x.pids, async () => {
    const fanOut = await runThroughputPhase({
      admin,
      producer,
      child: x.child,
      groupId: run.fanOutGroup,
      topic: run.inputTopic,
      events: w.links,
      publish: (i) => {
        const l = linkAt(w, i, stride);
        return producer.addEdge({ type: EDGE_TYPE, src: l.src, dst: l.dst, edgeTime: l.time }).then(() => 1);
      },
      status,
      label,
    });
    const repairs = await waitForRepairDrain({ admin, group: repair.group, topic: repair.topic, timeoutMs: args.settleTimeoutSeconds * 1000, status, label });
    return { fanOut, repairs };
  });
  const drainSeconds = round((drain.repairs.drainedAt - t0) / 1000, 2);
  const repairs = drain.repairs.records - repairsBefore;
  const dlq = (await endOffsetTotal(admin, dlqTopic)) - dlqBefore;
  const perLink = cpuMicrosPerLink(drain.cpu, w.links);
  say(
    `${label} drained in ${drainSeconds} s: ${fmt(w.links / drainSeconds)} links/s (produced at ${fmt(drain.fanOut.produceEventsPerSecond)}/s, fan-out caught up after ${drain.fanOut.endToEndSeconds} s, peak backlog ${fmt(drain.fanOut.peakBacklog)}); ${fmt(repairs)} repairs${drain.repairs.drained ? '' : ' (NOT drained when the bench gave up)'}, ${dlq} DLQ; CPU µs/link ${Object.entries(perLink).map(([k, v]) => `${k} ${v}`).join(', ')}; ${cpuNote(drain.cpu)}`,
  );

  const check = await checkSources({ reader: x.reader, edgeType: EDGE_TYPE, sources: checked, pageLimit: args.pageLimit, drainedAt: drain.repairs.drainedAt, timeoutMs: args.settleTimeoutSeconds * 1000, status, label });
  say(
    `${label} ${check.sampled} source${check.sampled === 1 ? '' : 's'} checked: ${check.countsSettled ? `out-degree exact ${check.countSettleSeconds} s after the drain` : `out-degree NOT exact after ${check.countSettleSeconds} s`}; newest page of ${args.pageLimit} ${check.pageMismatches === 0 ? 'as published' : `DIFFERS for ${check.pageMismatches}`}${check.examples.length ? `: ${check.examples.join('; ')}` : ''}`,
  );
  return {
    variant: x.variant,
    repeat: x.repeat,
    links: w.links,
    sources: w.sources,
    drainSeconds,
    linksPerSecond: Math.round(w.links / drainSeconds),
    fanOutSeconds: drain.fanOut.endToEndSeconds,
    produceLinksPerSecond: drain.fanOut.produceEventsPerSecond,
    peakBacklog: drain.fanOut.peakBacklog,
    repairs,
    dlq,
    repairsDrained: drain.repairs.drained,
    cpu: drain.cpu,
    check,
  };
}

type Phase = Variant | 'raw';

/**
 * The physical limit in the same run: the raw driver writes the rows of a hot source like the
 * hot phase's (its own ids, one source, the same edge times) in the pipeline's batch shape, with
 * the exact index's current-link read (bench/shared/rawIngest), into a fresh keyspace.
 */
async function measureRawPhase(args: HotBenchArgs, x: { repeat: number; run: BenchRun; endpoints: StackEndpoints; pids: Record<string, number | undefined> }): Promise<RawPhaseFigures> {
  const label = `[r${x.repeat} raw]`;
  const w = linkWorkload({ links: args.links, prefix: `r${x.repeat}raw-`, baseTime: BigInt(Date.now() - 86_400_000) * 1000n });
  const stride = timeStride(w.links);
  const eventTime0 = BigInt(Date.now()) * 1000n;
  const events = function* (): Generator<EdgeMutation> {
    for (let i = 0; i < w.links; i++) {
      const l = linkAt(w, i, stride);
      yield { mutation_id: randomUUID(), op: EdgeOp.ADD_EDGE, edge_type: EDGE_TYPE, src: l.src, dst: l.dst, event_time: eventTime0 + BigInt(i), edge_time: l.time, properties: {}, property_keys: [] };
    }
  };
  say(`\n── ${label} ${fmt(w.links)} links of one source with the raw driver, ${args.rawChunksInFlight} chunks in flight ──`);
  const tables = benchTables(EDGE_TYPE);
  const keyspace = `${x.run.config.cassandra.keyspace}_raw${x.repeat}`;
  live.rawKeyspace = { endpoints: x.endpoints, name: keyspace };
  const measured = await withRawKeyspace(x.endpoints, keyspace, tables, (client) =>
    withCpu(x.pids, () =>
      runRawIngest({ client, keyspace, tables, events: events(), eventCount: w.links, partitions: args.partitions, chunkEvents: resolveTuning(x.run.config).maxRecordsPerChunk, chunksInFlight: args.rawChunksInFlight, status, label }),
    ),
  );
  delete live.rawKeyspace;
  status.done();
  const perLink = cpuMicrosPerLink(measured.cpu, w.links);
  say(`${label} ${fmt(measured.eventsPerSecond)} links/s (${measured.seconds} s; ${fmt(measured.readRequests)} reads, ${fmt(measured.writeRequests)} write requests); CPU µs/link ${Object.entries(perLink).map(([k, v]) => `${k} ${v}`).join(', ')}; ${cpuNote(measured.cpu)}`);
  return { repeat: x.repeat, links: w.links, seconds: measured.seconds, linksPerSecond: measured.eventsPerSecond, chunksInFlight: measured.chunksInFlight, readRequests: measured.readRequests, writeRequests: measured.writeRequests, cpu: measured.cpu };
}

main().catch((e: unknown) => {
  status.done();
  console.error(`bench:hot failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exitCode = 1;
});
