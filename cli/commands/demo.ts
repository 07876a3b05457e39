import { randomBytes } from 'node:crypto';
import cassandra from 'cassandra-driver';
import { createEdgeReader, createReadCounters, createStorePartitionReader, type EdgeReader } from '../../reads/index.ts';
import { createServingPartitions } from '../../reads/split/createServingPartitions.ts';
import { parseEdgestreamConfig, type EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { splitNamespace, type WideRowRecord } from '../../sinks/namespaces/index.ts';
import { createWideRowRepository } from '../../sinks/wide/index.ts';
import { createEdgeProducer, createWidePartitionPublisher } from '../../streams/producer/index.ts';
import { createAvroSerde, registerSchemas } from '../../streams/serde/index.ts';
import { createEdgePipeline, edgePipelineGroups } from '../../streams/topology/createEdgePipeline.ts';
import { ensureTopics, topicSchemas, topicSpecs } from '../../streams/topics/index.ts';
import type { CommandContext } from '../commandContext.ts';
import { openStore } from '../openStore.ts';
import { createProgress } from '../progress.ts';
import { createRandom } from '../workload/createRandom.ts';
import { createZipfSampler } from '../workload/createZipfSampler.ts';
import { groupLag } from './lag.ts';

export interface DemoOptions {
  readonly followers: number;
  readonly users: number;
  readonly keep: boolean;
}

const say = (line: string) => console.log(line);
const CELEBRITY = 'celebrity';
const WATCHED = ['follows_in', 'follows_in_recent'] as const;

/**
 * `edgestream demo` (what `npm start` runs): the whole product in one command
 * on a private keyspace and topic prefix. Publishes a synthetic social graph
 * with one celebrity, runs every stage in this process, reads the celebrity
 * until the read counters report it wide, follows the plan → split → verify
 * chain to COMPLETED, and prints read latency before and after.
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
    await waitCaughtUp(admin, config);
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
    const reader = createEdgeReader({ partitions: serving.partitions, config, counters });
    const before = await measure(reader);
    say(`4. before the split: newest-50 page p50 ${before.p50.toFixed(1)} ms, p99 ${before.p99.toFixed(1)} ms; full scan of ${before.scanned} followers ${before.scanMs.toFixed(0)} ms`);

    const records = await followChain(createWideRowRepository(store), detectedAt);
    await new Promise((r) => setTimeout(r, 2 * config.wide.directoryRefreshMs));
    const original = await measure(createEdgeReader({ partitions: createStorePartitionReader(store), config }));
    const after = await measure(reader);
    say(`6. after the split (reads routed by the Bloom filter to ${records.map((r) => `${r.buckets} ${r.strategy} buckets of ${r.namespace}`).join(' and ')}):`);
    say(`   newest-50 page p50 ${after.p50.toFixed(1)} ms, p99 ${after.p99.toFixed(1)} ms; full scan ${after.scanMs.toFixed(0)} ms`);
    const same = after.scanned === before.scanned && after.scanned === original.scanned;
    say('');
    say('                      before     after    (original, for reference)');
    say(`   page p50 (ms)   ${pad(before.p50)} ${pad(after.p50)}  ${pad(original.p50)}`);
    say(`   page p99 (ms)   ${pad(before.p99)} ${pad(after.p99)}  ${pad(original.p99)}`);
    say(`   full scan (ms)  ${pad(before.scanMs)} ${pad(after.scanMs)}  ${pad(original.scanMs)}`);
    say(`   followers read  ${pad(before.scanned)} ${pad(after.scanned)}  ${pad(original.scanned)}  ${same ? '(identical)' : '(DIFFERENT)'}`);
    say(`   Bloom filter: ${serving.directory.stats.checks} checks, ${serving.directory.stats.hits} hits, ${serving.directory.stats.filterBits} bits`);
    say(`done in ${secs(t0)}; see \`edgestream splits\` for the metadata of a kept run.`);
    if (!same) throw new Error('reads through the split disagree with the original');
  } finally {
    await producer.close().catch(() => {});
    await publisher.close().catch(() => {});
    serving.stop();
    await pipeline.stop().catch(() => {});
    await store.close().catch(() => {});
    if (!o.keep) await cleanUp(ctx, admin, config);
    await admin.disconnect();
  }
}

function demoConfig(base: EdgestreamConfig, run: string): EdgestreamConfig {
  return parseEdgestreamConfig({
    edgeTypes: base.edgeTypes.some((t) => t.name === 'follows') ? base.edgeTypes : [...base.edgeTypes, { name: 'follows' }],
    topics: { ...base.topics, prefix: `edgestream.demo${run}.`, partitions: 3 },
    cassandra: { ...base.cassandra, keyspace: `edgestream_demo_${run}` },
    runtime: { ...base.runtime, writeRetryBudgetMs: 2_000, cascadeSettleMs: 14_000 },
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

async function waitCaughtUp(admin: ReturnType<CommandContext['kafka']['admin']>, config: EdgestreamConfig): Promise<void> {
  const fanOut = edgePipelineGroups(config).filter((g) => g.stage === 'fanout' || g.stage === 'repair');
  for (let last = 0; ; ) {
    const lag = (await Promise.all(fanOut.map((g) => groupLag(admin, g.group, g.topic)))).reduce((n, l) => n + l.lag, 0);
    if (lag === 0) return;
    if (Date.now() - last > 5_000) {
      console.error(`   fan-out lag: ${lag} events`);
      last = Date.now();
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function measure(reader: EdgeReader) {
  for (let i = 0; i < 5; i++) await reader.in('follows', CELEBRITY, { limit: 50 }); // warm-up, untimed
  const samples: number[] = [];
  for (let i = 0; i < 40; i++) {
    const t = performance.now();
    await reader.in('follows', CELEBRITY, { limit: 50 });
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const t = performance.now();
  let scanned = 0;
  let cursor: string | undefined;
  do {
    const page = await reader.in('follows', CELEBRITY, { limit: 1_000, ...(cursor ? { cursor } : {}) });
    scanned += page.items.length;
    cursor = page.cursor;
  } while (cursor !== undefined);
  return { p50: samples[Math.floor(samples.length * 0.5)] as number, p99: samples[Math.floor(samples.length * 0.99)] as number, scanMs: performance.now() - t, scanned };
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

async function cleanUp(ctx: CommandContext, admin: ReturnType<CommandContext['kafka']['admin']>, config: EdgestreamConfig): Promise<void> {
  await admin.deleteTopics({ topics: topicSpecs(config).map((s) => s.topic) }).catch(() => {});
  const cql = new cassandra.Client({ contactPoints: [...ctx.endpoints.cassandraContactPoints], localDataCenter: ctx.endpoints.cassandraLocalDc });
  try {
    await cql.execute(`DROP KEYSPACE IF EXISTS ${config.cassandra.keyspace}`);
  } finally {
    await cql.shutdown();
  }
}

const secs = (t0: number) => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
const pad = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1)).padStart(9);
