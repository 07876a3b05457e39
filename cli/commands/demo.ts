import { randomBytes } from 'node:crypto';
import cassandra from 'cassandra-driver';
import os from 'node:os';
import { createEdgeReader, createReadCounters, createStorePartitionReader } from '../../reads/index.ts';
import { createServingPartitions } from '../../reads/split/createServingPartitions.ts';
import { parseEdgestreamConfig, type EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { waitForQuietCassandra } from '../../sinks/cassandra/index.ts';
import { splitNamespace, type WideRowRecord } from '../../sinks/namespaces/index.ts';
import type { TwoLevelMapStore } from '../../sinks/store/index.ts';
import { createWideRowRepository } from '../../sinks/wide/index.ts';
import { createEdgeProducer, createWidePartitionPublisher } from '../../streams/producer/index.ts';
import { createAvroSerde, registerSchemas } from '../../streams/serde/index.ts';
import { createEdgePipeline } from '../../streams/topology/createEdgePipeline.ts';
import { ensureTopics, topicSchemas, topicSpecs } from '../../streams/topics/index.ts';
import type { CommandContext } from '../commandContext.ts';
import { bucketSizes } from '../demo/bucketSizes.ts';
import { compareReads, comparisonTable, latencyConclusion } from '../demo/comparisonTable.ts';
import { measurePaired, timeFullScan } from '../demo/measurePaired.ts';
import { waitForQuietPipeline } from '../demo/waitForQuietPipeline.ts';
import { openStore } from '../openStore.ts';
import { createProgress } from '../progress.ts';
import { createRandom } from '../workload/createRandom.ts';
import { createZipfSampler } from '../workload/createZipfSampler.ts';

export interface DemoOptions {
  readonly followers: number;
  readonly users: number;
  readonly keep: boolean;
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
  const admin = ctx.kafka.admin();
  await admin.connect();
  const store = await openStore(ctx.endpoints, config);
  const serde = createAvroSerde({ registry: ctx.registry, maxRecordBytes: config.limits.maxRecordBytes });
  // The narrative goes to stdout; the stages' JSON logs (stderr) only from warn up, unless LOG_LEVEL asks for more.
  const logger = process.env['LOG_LEVEL'] ? ctx.logger : ctx.logger.child({}, { level: 'warn' });
  const pipeline = createEdgePipeline({ kafka: ctx.kafka, serde, store, config, logger });
  const serving = createServingPartitions(store, config);
  const publisher = createWidePartitionPublisher({ kafka: ctx.kafka, serde, config, logger });
  const producer = createEdgeProducer({ kafka: ctx.kafka, serde, config });
  const cql = new cassandra.Client({ contactPoints: [...ctx.endpoints.cassandraContactPoints], localDataCenter: ctx.endpoints.cassandraLocalDc });
  const target = { type: 'follows', vertex: CELEBRITY };
  let pipelineStopped = false;
  try {
    await ensureTopics(admin, config);
    await registerSchemas(ctx.registry, topicSchemas(config));
    await store.init();
    say(`1. init: ${topicSpecs(config).length} topics, schemas registered, ${store.namespaces.length} namespaces`);
    await pipeline.start();
    await serving.start();
    say(`2. running every stage in this process: ${Object.keys(pipeline.groups).join(', ')}`);

    const events = await publishGraph(producer, o);
    say(`3. published ${events} follows: ${o.users} users (Zipf) and @${CELEBRITY} with ${o.followers} followers`);
    const caughtUp = await waitForQuietPipeline(admin, config, { stages: ['fanout', 'repair'], maxMs: 10 * 60_000, onBusy: (busy) => progress(`   fan-out still busy: ${busy}`) });
    if (!caughtUp.quiet) throw new Error(`the fan-out did not catch up within 10 minutes (lag ${caughtUp.lag})`);
    say(`   the fan-out caught up after ${secs(t0)}`);

    let detectedAt: number | undefined;
    const counters = createReadCounters({
      wide: config.wide,
      onWide: (e) => {
        detectedAt ??= Date.now();
        say(`   wide partition detected by the read counters: ${e.namespace}[${e.partition_id}] (${e.rows_read} rows, ${(Number(e.bytes_read) / 1048576).toFixed(1)} MiB read in the window)`);
        void publisher.publish(e);
      },
    });
    const detecting = await timeFullScan(createEdgeReader({ partitions: serving.partitions, config, counters }), target, SCAN_PAGE);
    say(`4. read the celebrity: a full scan of ${fmt(detecting.items)} followers (pages of ${fmt(SCAN_PAGE)}) crossed the read counters' threshold (${fmt(config.wide.thresholdRows)} rows in ${config.wide.windowMs / 1000} s)`);

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
    say(`Bloom filter: ${serving.directory.stats.checks} checks, ${serving.directory.stats.hits} hits, ${serving.directory.stats.filterBits} bits`);
    say(`done in ${secs(t0)}; see \`edgestream splits\` for the metadata of a kept run.`);
    if (!same) throw new Error(`reads through the split disagree with the original: ${reads.scanned.b} and ${reads.scanned.a} followers (${detecting.items} before the split)`);
  } finally {
    await producer.close().catch(() => {});
    await publisher.close().catch(() => {});
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
  for (let i = 0; i < o.followers; i++) await send(`fan${i}`, CELEBRITY);
  await producer.flush();
  progress.add(sent % 2_000);
  progress.done();
  return sent;
}

async function followChain(repository: ReturnType<typeof createWideRowRepository>, detectedAt: number | undefined): Promise<WideRowRecord[]> {
  if (detectedAt === undefined) throw new Error('the full scan did not cross the wide-partition threshold; nothing to split');
  say('5. the chain at work (planner → splitter → verifier), while the pipeline keeps running:');
  const seen = new Map<string, string>();
  const deadline = Date.now() + 10 * 60_000;
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
    if (Date.now() > deadline) throw new Error('the chain did not complete within 10 minutes');
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function cleanUp(cql: cassandra.Client, admin: ReturnType<CommandContext['kafka']['admin']>, config: EdgestreamConfig): Promise<void> {
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
