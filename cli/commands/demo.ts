import { randomBytes } from 'node:crypto';
import cassandra from 'cassandra-driver';
import os from 'node:os';
import { createEdgeReader, createStorePartitionReader } from '../../reads/index.ts';
import { createServingPartitions } from '../../reads/split/createServingPartitions.ts';
import { parseEdgestreamConfig, type EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { waitForQuietCassandra } from '../../sinks/cassandra/index.ts';
import { splitNamespace, type WideRowRecord } from '../../sinks/namespaces/index.ts';
import type { TwoLevelMapStore } from '../../sinks/store/index.ts';
import type { KafkaAdmin } from '../../streams/kafka/index.ts';
import { createWideRowRepository } from '../../sinks/wide/index.ts';
import { createEdgeProducer } from '../../streams/producer/index.ts';
import { createAvroSerde, registerSchemas, type AvroSerde } from '../../streams/serde/index.ts';
import { createEdgePipeline } from '../../streams/topology/createEdgePipeline.ts';
import { ensureTopics, topicSchemas, topicSpecs } from '../../streams/topics/index.ts';
import type { CommandContext } from '../commandContext.ts';
import { bucketSizes } from '../demo/bucketSizes.ts';
import { quantile } from '../demo/comparePaired.ts';
import { compareReads, comparisonTable, latencyConclusion } from '../demo/comparisonTable.ts';
import { httpNeighbourPages } from '../demo/httpNeighbourPages.ts';
import { measurePaired, timeFullScan, timeNewestPage } from '../demo/measurePaired.ts';
import { startEdgeService, type RunningService } from './serve.ts';
import { waitForQuietPipeline } from '../demo/waitForQuietPipeline.ts';
import { cassandraConnection, openStore } from '../openStore.ts';
import { createProgress } from '../progress.ts';
import { createRandom } from '../workload/createRandom.ts';
import { createZipfSampler } from '../workload/createZipfSampler.ts';
import { scrambledId } from '../workload/scrambledId.ts';

export interface DemoOptions {
  readonly followers: number;
  readonly users: number;
  readonly keep: boolean;
  /** Port of the demo's `edgestream serve` (0: any free port). */
  readonly port: number;
}

const say = (line: string) => console.log(line);
const CELEBRITY = 'celebrity';
const WATCHED = ['follows_in', 'follows_in_recent'] as const;
const SCAN_PAGE = 1_000;
const PAGE_REPEATS = 5;
const PAGE_PAIRS = 100;
const SCAN_REPEATS = 4;

/**
 * `edgestream demo` (what `npm start` runs): the whole product in one command
 * on a private keyspace and topic prefix. Publishes a synthetic social graph
 * with one celebrity, runs every stage in this process, reads the celebrity
 * until the read counters report it wide, follows the plan → split → verify
 * chain to COMPLETED, then — once the pipeline and Cassandra are quiet — prints
 * what the split bought (sizes) and a paired before/after read comparison
 * (original and split read alternately in the same window; issue 13).
 */
export async function demoCommand(ctx: CommandContext, o: DemoOptions): Promise<void> {
  const t0 = Date.now();
  const run = randomBytes(3).toString('hex');
  const config = demoConfig(ctx.config, run);
  say(`edgestream demo ${run}: keyspace ${config.cassandra.keyspace}, topics ${config.topics.prefix}*`);
  const kafka = await ctx.kafka();
  const admin = kafka.admin();
  await admin.connect();
  const store = await openStore(ctx.endpoints, config);
  const serde = createAvroSerde({ registry: await ctx.registry(), maxRecordBytes: config.limits.maxRecordBytes });
  // The narrative goes to stdout; the stages' JSON logs (stderr) only from warn up, unless LOG_LEVEL asks for more.
  const logger = process.env['LOG_LEVEL'] ? ctx.logger : ctx.logger.child({}, { level: 'warn' });
  const pipeline = createEdgePipeline({ kafka, serde, store, config, logger });
  const serving = createServingPartitions(store, config);
  const producer = createEdgeProducer({ kafka, serde, config });
  const cql = new cassandra.Client(cassandraConnection(ctx.endpoints));
  const target = { type: 'follows', vertex: CELEBRITY };
  let pipelineStopped = false;
  let service: RunningService | undefined;
  try {
    await ensureTopics(admin, config);
    await registerSchemas(await ctx.registry(), topicSchemas(config));
    await store.init();
    say(`1. init: ${topicSpecs(config).length} topics, schemas registered, ${store.namespaces.length} namespaces`);
    await pipeline.start();
    await serving.start();
    // The API applications use: the demo's own reads of the graph go through it (its reader's counters detect wide partitions).
    service = await startEdgeService({ ...ctx, config, logger, store: async () => store }, { port: o.port, host: '127.0.0.1' });
    const api = httpNeighbourPages(service.url);
    say(`2. running every stage in this process: ${Object.keys(pipeline.groups).join(', ')}; edgestream serve on ${service.url}`);

    const events = await publishGraph(producer, o);
    say(`3. published ${events} follows: ${o.users} users (Zipf) and @${CELEBRITY} with ${o.followers} followers`);
    const caughtUp = await waitForQuietPipeline(admin, config, { stages: ['fanout', 'repair'], maxMs: 10 * 60_000, onBusy: (busy) => progress(`   fan-out still busy: ${busy}`) });
    if (!caughtUp.quiet) throw new Error(`the fan-out did not catch up within 10 minutes (lag ${caughtUp.lag})`);
    say(`   the fan-out caught up after ${secs(t0)}`);

    // Newest first reads only the (exact) index, by peer only the links: the two scans make both partitions wide.
    const detecting = await timeFullScan(api, target, SCAN_PAGE);
    const byPeer = await timeFullScan(api, target, SCAN_PAGE, 'peer');
    const detectedAt = Date.now();
    if (byPeer.items !== detecting.items) throw new Error(`the scans disagree: ${detecting.items} followers newest first, ${byPeer.items} by peer`);
    say(`4. read the celebrity over HTTP in both orders (GET ${service.url}/v1/vertices/${CELEBRITY}/in/follows?limit=${SCAN_PAGE} and &order=peer, following cursors): ${fmt(detecting.items)} followers each; the server's read counters saw more than ${fmt(config.wide.thresholdRows)} rows of the index and of the links in ${config.wide.windowMs / 1000} s and reported both partitions wide`);

    const records = await followChain(createWideRowRepository(store), detectedAt);
    say('6. waiting for quiet before measuring, so "before" and "after" see the same machine:');
    const pipelineQuiet = await waitForQuietPipeline(admin, config, { ...(pipeline.recounter ? { recounter: pipeline.recounter } : {}), maxMs: 120_000, onBusy: (busy) => progress(`   pipeline still busy: ${busy}`) });
    await pipeline.stop();
    pipelineStopped = true;
    say(`   pipeline ${pipelineQuiet.quiet ? 'quiet' : 'STILL BUSY'} after ${pipelineQuiet.seconds} s (consumer lag ${pipelineQuiet.lag} over every group, recounter's last round ${pipelineQuiet.recountMarks ?? '-'} marks); stages stopped`);
    const cassandraQuiet = await waitForQuietCassandra(cql, { onBusy: (busy, ms) => progress(`   Cassandra still busy (${busy}), ${(ms / 1000).toFixed(0)} s`) });
    say(`   Cassandra ${cassandraQuiet.quiet ? 'quiet' : 'STILL BUSY'} after ${cassandraQuiet.seconds} s (no flush or compaction active or pending for 3 s)`);
    await new Promise((r) => setTimeout(r, 2 * config.wide.directoryRefreshMs)); // the serving reader's directory sees COMPLETED

    say('7. what the split buys at this size:');
    for (const line of await splitFacts(store, cql, config, records)) say(`   ${line}`);

    const plan = { pageLimit: 50, pageRepeats: PAGE_REPEATS, pagePairs: PAGE_PAIRS, scanPageSize: SCAN_PAGE, scanRepeats: SCAN_REPEATS, onProgress: (text: string) => say(`   ${text}`) };
    say(`8. reading the original (before) and the split (after) in the same window, alternating A/B: ${plan.pageRepeats} repeats × ${plan.pagePairs} pairs of newest-50 pages, then ${plan.scanRepeats} pairs of full scans`);
    const load = os.loadavg()[0] as number;
    const original = createEdgeReader({ partitions: createStorePartitionReader(store), config });
    const split = createEdgeReader({ partitions: serving.partitions, config });
    const reads = await measurePaired(original, split, target, plan);
    const comparison = compareReads(reads);
    const same = reads.scanned.a === reads.scanned.b && reads.scanned.a === detecting.items;
    say('');
    for (const line of comparisonTable(comparison, reads.scanned)) say(line);
    say('   (figures pooled over all samples; in brackets the range across repeats)');
    say('');
    say(latencyConclusion(comparison));
    say(`Conditions: ${os.cpus().length} cores (1-minute load average ${load.toFixed(1)} when the reads began: the stack, this process and whatever else runs here); @${CELEBRITY} ${fmt(o.followers)} followers, ${fmt(o.users)} users; ` +
      `${plan.pageRepeats * plan.pagePairs} newest-50 pages and ${plan.scanRepeats} full scans (pages of ${fmt(SCAN_PAGE)}) per side, A/B alternated; ` +
      `pipeline ${pipelineQuiet.quiet ? 'quiet' : 'NOT quiet'} (waited ${pipelineQuiet.seconds} s) and stopped, Cassandra ${cassandraQuiet.quiet ? 'quiet' : 'NOT quiet'} (waited ${cassandraQuiet.seconds} s).`);
    const overHttp = await httpPageLatency(api, target);
    say(`Over HTTP (the server the demo started, in this process): newest-50 page p50 ${overHttp.p50.toFixed(1)} ms, p99 ${overHttp.p99.toFixed(1)} ms over ${overHttp.samples} sequential requests; the paired table above reads through the library so HTTP does not blur the comparison.`);
    say(`Bloom filter: ${serving.directory.stats.checks} checks, ${serving.directory.stats.hits} hits, ${serving.directory.stats.filterBits} bits`);
    say(`done in ${secs(t0)}; see \`edgestream splits\` for the metadata of a kept run.`);
    if (!same) throw new Error(`reads through the split disagree with the original: ${reads.scanned.b} and ${reads.scanned.a} followers (${detecting.items} before the split)`);
    if (o.keep) await keepServing(ctx, config, serde, store, logger, service.url);
  } finally {
    await service?.stop().catch(() => {});
    await producer.close().catch(() => {});
    serving.stop();
    if (!pipelineStopped) await pipeline.stop().catch(() => {});
    await store.close().catch(() => {});
    if (!o.keep) await cleanUp(cql, admin, config);
    await cql.shutdown().catch(() => {});
    await admin.disconnect();
  }
}

function demoConfig(base: EdgestreamConfig, run: string): EdgestreamConfig {
  return parseEdgestreamConfig({
    edgeTypes: base.edgeTypes.some((t) => t.name === 'follows') ? base.edgeTypes : [...base.edgeTypes, { name: 'follows' }],
    topics: { ...base.topics, prefix: `edgestream.demo${run}.`, partitions: 3 },
    cassandra: { ...base.cassandra, keyspace: `edgestream_demo_${run}` },
    runtime: { ...base.runtime, writeRetryBudgetMs: 2_000, cascadeSettleMs: 14_000, recountIntervalMs: 2_000 },
    // Small figures so a laptop-sized celebrity is "wide" and the chain's barrier is short.
    wide: { ...base.wide, thresholdRows: 20_000, targetBucketBytes: 256 << 10, directoryRefreshMs: 1_000, verifySettleMs: 2_000 },
  }, 'demo config');
}

async function publishGraph(producer: ReturnType<typeof createEdgeProducer>, o: DemoOptions): Promise<number> {
  const random = createRandom(7);
  const zipf = createZipfSampler(o.users, 1.1, random);
  const progress = createProgress('publishing', o.followers + o.users * 5);
  let sent = 0;
  const send = async (src: string, dst: string) => {
    void producer.addEdge({ type: 'follows', src, dst });
    if (++sent % 2_000 === 0) {
      await producer.flush();
      progress.add(2_000);
    }
  };
  for (let i = 0; i < o.users * 5; i++) await send(`user${Math.floor(random() * o.users)}`, `user${zipf()}`);
  // Follower ids that sort unrelated to follow order, as in a real graph: the newest followers are spread over the link partition.
  for (let i = 0; i < o.followers; i++) await send(scrambledId('fan', i, 0), CELEBRITY);
  await producer.flush();
  progress.add(sent % 2_000);
  progress.done();
  return sent;
}

async function followChain(repository: ReturnType<typeof createWideRowRepository>, detectedAt: number): Promise<WideRowRecord[]> {
  say('5. the chain at work (planner → splitter → verifier), while the pipeline keeps running:');
  const seen = new Map<string, string>();
  const deadline = Date.now() + 10 * 60_000;
  const planDeadline = Date.now() + 60_000;
  for (;;) {
    const records = (await Promise.all(WATCHED.map((ns) => repository.get(ns, CELEBRITY)))).filter((r): r is WideRowRecord => r !== undefined);
    for (const r of records) {
      if (seen.get(r.namespace) === r.status) continue;
      seen.set(r.namespace, r.status);
      const extra = r.status === 'PLANNED' ? ` ${r.rows} rows, ${(r.bytes / 1048576).toFixed(1)} MiB → ${r.buckets} ${r.strategy} buckets in ${splitNamespace(r.namespace)}`
        : r.status === 'SPLIT' ? ` ${r.copiedRows} rows copied`
        : r.verification ? ` checksums ${r.verification.originalChecksum.slice(0, 12)}… / ${r.verification.splitChecksum.slice(0, 12)}…, ${r.verification.rowsCompared} rows compared` : '';
      say(`   +${((Date.now() - detectedAt) / 1000).toFixed(1)}s ${r.namespace}[${CELEBRITY}] ${r.status}${extra}`);
    }
    if (records.length === WATCHED.length && records.every((r) => r.status === 'COMPLETED')) return records;
    const failed = records.find((r) => r.status === 'FAILED');
    if (failed) throw new Error(`the split of ${failed.namespace} FAILED: ${failed.failure}`);
    if (records.length === 0 && Date.now() > planDeadline) throw new Error('no split was planned within 60 s of the scan: the read did not cross the wide-partition threshold');
    if (Date.now() > deadline) throw new Error('the chain did not complete within 10 minutes');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Newest-50 page latency over HTTP, sequential requests after a warm-up. */
async function httpPageLatency(api: ReturnType<typeof httpNeighbourPages>, target: { type: string; vertex: string }) {
  for (let i = 0; i < 10; i++) await timeNewestPage(api, target, 50);
  const samples: number[] = [];
  for (let i = 0; i < 200; i++) samples.push(await timeNewestPage(api, target, 50));
  return { p50: quantile(samples, 0.5), p99: quantile(samples, 0.99), samples: samples.length };
}

/**
 * `--keep`: the stages run again and the server stays up until SIGINT/SIGTERM, with curl lines
 * that work against it; the keyspace and topics are kept.
 */
async function keepServing(ctx: CommandContext, config: EdgestreamConfig, serde: AvroSerde, store: TwoLevelMapStore, logger: CommandContext['logger'], url: string): Promise<void> {
  const pipeline = createEdgePipeline({ kafka: await ctx.kafka(), serde, store, config, logger });
  await pipeline.start();
  say('');
  say(`Kept: the stages run again and ${url} keeps serving until Ctrl-C. Try (another terminal):`);
  say(`  curl -s "${url}/v1/vertices/${CELEBRITY}/in/follows?limit=5"`);
  say(`  curl -s "${url}/v1/vertices/${CELEBRITY}/degree/follows"`);
  say(`  curl -s -X POST ${url}/v1/mutations -H 'content-type: application/json' -d '{"op":"ADD_EDGE","type":"follows","src":"you","dst":"${CELEBRITY}"}'`);
  say(`  curl -s "${url}/v1/edges/follows/you/${CELEBRITY}?after=<token from the POST>"`);
  say(`  curl -s ${url}/metrics | grep edgestream_read_duration_seconds_count`);
  say(`The data stays in keyspace ${config.cassandra.keyspace} and topics ${config.topics.prefix}*: other commands reach it with a config of {"topics":{"prefix":"${config.topics.prefix}","partitions":${config.topics.partitions}},"cassandra":{"keyspace":"${config.cassandra.keyspace}"}}.`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  say('stopping: draining the server and the stages');
  await pipeline.stop();
}

async function cleanUp(cql: cassandra.Client, admin: KafkaAdmin, config: EdgestreamConfig): Promise<void> {
  await admin.deleteTopics({ topics: topicSpecs(config).map((s) => s.topic) }).catch(() => {});
  await cql.execute(`DROP KEYSPACE IF EXISTS ${config.cassandra.keyspace}`);
}

const secs = (t0: number) => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
const fmt = (n: number) => n.toLocaleString('en-US');
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(2)} MiB`;
let lastProgress = 0;
/** Progress while waiting: stderr, at most every 5 s. */
const progress = (line: string) => {
  if (Date.now() - lastProgress < 5_000) return;
  lastProgress = Date.now();
  console.error(line);
};

/**
 * What a split changes that does not depend on the machine's load: partition
 * sizes (the planner's count of the original against the largest bucket,
 * counted), tombstones, and where the buckets live.
 */
async function splitFacts(store: TwoLevelMapStore, cql: cassandra.Client, config: EdgestreamConfig, records: readonly WideRowRecord[]): Promise<string[]> {
  const lines: string[] = [];
  for (const r of records) {
    const sizes = await bucketSizes(store, r);
    const largest = sizes.reduce((m, s) => (s.bytes > m.bytes ? s : m), { rows: 0, bytes: 0 });
    lines.push(`${r.namespace}[${CELEBRITY}]: one partition of ${fmt(r.rows)} rows, ${mib(r.bytes)} → ${sizes.length} ${r.strategy} buckets; the largest ${fmt(largest.rows)} rows, ${mib(largest.bytes)} (target ${mib(config.wide.targetBucketBytes)}); a partition grows without bound, a bucket does not`);
  }
  lines.push('the copy writes live rows only, so the buckets hold no tombstones; this demo unfollows nobody, so the original holds none either: nothing to gain there at this size');
  const peers = (await cql.execute('SELECT peer FROM system.peers')).rowLength;
  lines.push(peers === 0
    ? 'one Cassandra node: every bucket lives on the same node as the original, so there is no spread across replicas here (on a cluster, buckets hash to different replicas)'
    : `${peers + 1} Cassandra nodes: buckets hash to different token ranges, so the partition's load spreads over replicas`);
  return lines;
}
