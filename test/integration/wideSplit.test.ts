import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupsLag } from '../../cli/commands/lag.ts';
import { createEdgeReader, createReadCounters, createStorePartitionReader, MAX_PER_HOP_CAP, type EdgeReader, type NeighbourOrder } from '../../reads/index.ts';
import { createServingPartitions, type ServingPartitions } from '../../reads/split/createServingPartitions.ts';
import type { WidePartitionDetected } from '../../schemas/index.ts';
import { bucketCount, bucketOfKey, layoutOf, splitBucketId, type WideRowRecord } from '../../sinks/namespaces/index.ts';
import { createWideRowRepository, type WideRowRepository } from '../../sinks/wide/index.ts';
import { endpointsToEnv } from '../../stack/endpoints.ts';
import { createEdgeProducer, createWidePartitionPublisher, type EdgeProducer, type WidePartitionPublisher } from '../../streams/producer/index.ts';
import type { Runner } from '../../streams/runtime/index.ts';
import { createSplitChain } from '../../streams/runtime/split/index.ts';
import { createEdgePipeline, edgePipelineGroups, type EdgePipeline } from '../../streams/topology/createEdgePipeline.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from '../support/edgestreamEnv.ts';
import { createFollowersModel, type FollowersModel } from '../support/followersModel.ts';
import { killAll, REPO_ROOT, startProcessorProcess, type ProcessorProcess } from '../support/processorProcess.ts';
import { waitFor } from '../support/waitFor.ts';

const exec = promisify(execFile);

// §6 end to end on the real stack: reads detect a celebrity partition, the chain (a child
// `edgestream run plan split verify`, SIGKILLed mid-plan and mid-copy) splits it while a
// producer keeps following and unfollowing, and every read through the split, of the
// original and of the model agree. Nothing is mocked.

const FOLLOWERS = 60_000; // above the 50 000-row threshold in both namespaces
const NAMESPACES = ['follows_in', 'follows_in_recent'] as const;

describe('wide partitions: detect → plan → split → verify through Kafka and Cassandra', () => {
  let env: EdgestreamEnv;
  let producer: EdgeProducer;
  let pipeline: EdgePipeline;
  let serving: ServingPartitions;
  let publisher: WidePartitionPublisher;
  let reader: EdgeReader;
  let originalReader: EdgeReader;
  let repository: WideRowRepository;
  let tmp: string;
  let configFile: string;
  const processes = new Set<ProcessorProcess>();
  const runners: Runner[] = [];
  const detected: WidePartitionDetected[] = [];
  let model: FollowersModel;
  const follow = (celeb: string, follower: string) => model.follow(celeb, follower);
  const unfollow = (celeb: string, follower: string) => model.unfollow(celeb, follower);
  const expected = (celeb: string, order: NeighbourOrder) => model.expected(celeb, order);
  const scan = (r: EdgeReader, celeb: string, order: NeighbourOrder, limit?: number) => model.scan(r, celeb, order, limit);
  const caughtUp = async () => {
    const groups = edgePipelineGroups(env.config).filter((g) => g.stage === 'fanout' || g.stage === 'repair');
    const lags = await groupsLag(env.admin, groups);
    return lags.every((l) => l.lag === 0);
  };
  const record = (ns: string, celeb: string) => repository.get(ns, celeb);

  beforeAll(async () => {
    env = await createEdgestreamEnv({
      name: 'wide',
      partitions: 3,
      runtime: { writeRetryBudgetMs: 1_000 },
      wide: { directoryRefreshMs: 500, verifySettleMs: 3_000, targetBucketBytes: 256 << 10, maxBuckets: 8, thresholdRows: 50_000, windowMs: 600_000, coolDownMs: 600_000 },
    });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'edgestream-wide-'));
    configFile = path.join(tmp, 'edgestream.config.json');
    fs.writeFileSync(configFile, JSON.stringify(env.configInput, null, 2));
    repository = createWideRowRepository(env.store);
    producer = createEdgeProducer({ kafka: env.kafka, serde: env.serde, config: env.config });
    model = createFollowersModel(producer, BigInt(Date.now() - 3_600_000) * 1000n);
    pipeline = createEdgePipeline({ kafka: env.kafka, serde: env.serde, store: env.store, config: env.config, logger: env.logger, stages: ['fanout', 'repair'] });
    await pipeline.start();
    serving = createServingPartitions(env.store, env.config);
    await serving.start();
    publisher = createWidePartitionPublisher({ kafka: env.kafka, serde: env.serde, config: env.config, logger: env.logger });
    const counters = createReadCounters({ wide: env.config.wide, onWide: (e) => void (detected.push(e), publisher.publish(e)) });
    reader = createEdgeReader({ partitions: serving.partitions, config: env.config, counters });
    originalReader = createEdgeReader({ partitions: createStorePartitionReader(env.store), config: env.config });
  });

  afterAll(async () => {
    await killAll(processes);
    for (const r of runners) await r.stop().catch(() => {});
    await pipeline?.stop().catch(() => {});
    serving?.stop();
    await publisher?.close().catch(() => {});
    await producer?.close().catch(() => {});
    await env?.teardown();
    if (tmp && !process.env['IT_KEEP_LOGS']) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it(`detects a ${FOLLOWERS}-follower celebrity by its reads and splits it while follows and unfollows keep arriving; planner and splitter resume after SIGKILL`, { timeout: 900_000 }, async () => {
    const celeb = 'celeb';
    for (let i = 0; i < FOLLOWERS; i++) {
      void follow(celeb, `f${i}`);
      if (i % 5_000 === 4_999) await producer.flush();
    }
    await producer.flush();
    await waitFor('the fan-out to catch up with the load', caughtUp, 400_000);

    // Reads before the split: full scans in both orders equal the model; the newest-first one reads only the
    // (exact) index, the by-peer one the links, and each crosses its namespace's threshold.
    expect(await scan(reader, celeb, 'newest')).toEqual(expected(celeb, 'newest'));
    expect(await scan(reader, celeb, 'peer')).toEqual(expected(celeb, 'peer'));
    expect(new Set(detected.map((d) => d.namespace))).toEqual(new Set(NAMESPACES));
    expect(detected.every((d) => d.partition_id === celeb && d.rows_read >= 50_000n)).toBe(true);
    await waitFor('the wide-partition events to be published', async () => publisher.published >= 2, 30_000);

    // Churn during the whole chain: new followers and unfollows of old ones.
    let churning = true;
    let churned = 0;
    const churn = (async () => {
      for (let k = 0; churning; k++) {
        if (k % 3 === 2) await unfollow(celeb, `f${(k * 7_919) % FOLLOWERS}`);
        else await follow(celeb, `g${k}`);
        churned++;
        if (k % 20 === 19) {
          await producer.flush();
          await sleep(50);
        }
      }
      await producer.flush();
    })();

    const childEnv = { ...endpointsToEnv(env.endpoints), LOG_LEVEL: 'info' };
    let generation = 0;
    const startChain = () => startProcessorProcess({ configFile, stages: ['plan', 'split', 'verify'], env: childEnv, logPath: path.join(tmp, `chain-${generation++}.log`), registry: processes });
    const logs = () => fs.readdirSync(tmp).filter((f) => f.startsWith('chain-')).map((f) => fs.readFileSync(path.join(tmp, f), 'utf8')).join('\n');
    const checkpointed = (stage: string) => async () => {
      for (const ns of NAMESPACES) if ((await repository.getCheckpoint(stage, { namespace: ns, partitionId: celeb, generation: 1 })) !== undefined) return true;
      return false;
    };

    let chain = startChain();
    await waitFor('a plan checkpoint', checkpointed('plan'), 180_000, () => chain.tail());
    expect((await chain.kill('SIGKILL')).signal).toBe('SIGKILL');
    chain = startChain();
    await waitFor('a copy checkpoint', checkpointed('split'), 180_000, () => chain.tail());
    expect((await chain.kill('SIGKILL')).signal).toBe('SIGKILL');
    chain = startChain();
    await waitFor(
      'both splits to finish',
      async () => {
        const records = await Promise.all(NAMESPACES.map((ns) => record(ns, celeb)));
        if (records.some((r) => r?.status === 'FAILED')) throw new Error(`a split FAILED: ${JSON.stringify(records)}`);
        return records.every((r) => r?.status === 'COMPLETED');
      },
      300_000,
      () => chain.tail(),
    );
    expect(logs()).toContain('planner: resuming the scan from its checkpoint');
    expect(logs()).toContain('splitter: resuming the copy from its checkpoint');

    churning = false;
    await churn;
    expect(churned).toBeGreaterThan(100);
    await waitFor('the fan-out to drain the churn', caughtUp, 120_000);
    await sleep(3 * env.config.wide.directoryRefreshMs);

    for (const ns of NAMESPACES) {
      const r = (await record(ns, celeb)) as WideRowRecord;
      console.log(`${ns}[${celeb}]: ${r.rows} rows, ${r.bytes} bytes, ${r.buckets} ${r.strategy} buckets, plan→copied ${((r.copiedAt! - r.plannedAt!) / 1e6).toFixed(1)} s, copied→verified ${((r.verifiedAt! - r.copiedAt!) / 1e6).toFixed(1)} s, ${churned} churn events; verification ${JSON.stringify(r.verification)}`);
      expect(r).toMatchObject({ status: 'COMPLETED', generation: 1 });
      expect(r.buckets).toBeGreaterThan(1);
      expect(r.buckets).toBeLessThanOrEqual(env.config.wide.maxBuckets);
      // Link cells stay (REMOVED is a value); an unfollow that landed before the scan deleted its recent entry.
      expect(r.rows).toBeGreaterThanOrEqual(ns === 'follows_in' ? FOLLOWERS : FOLLOWERS * 0.9);
      expect(r.verification).toMatchObject({ mismatchedKeys: 0 });
      expect(r.verification!.splitChecksum).toBe(r.verification!.originalChecksum);
      // The split holds rows in every bucket.
      const target = { splitNamespace: r.splitNamespace, partitionId: celeb, generation: 1, layout: layoutOf(r) };
      for (let b = 0; b < bucketCount(target.layout); b++) {
        const page = await env.store.namespace(r.splitNamespace).slice(splitBucketId(celeb, 1, b), { limit: 1 });
        expect(page.cells.length, `bucket ${b} of ${ns}`).toBe(1);
      }
    }

    // After the quiet: reads through the split, reads of the original and the model agree, page by page by cursor.
    const hitsBefore = serving.directory.stats.hits;
    for (const order of ['newest', 'peer'] as const) {
      const want = expected(celeb, order);
      expect(await scan(reader, celeb, order, 777)).toEqual(want);
      expect(await scan(originalReader, celeb, order, 777)).toEqual(want);
    }
    expect(serving.directory.stats.hits).toBeGreaterThan(hitsBefore);
    // A traversal scans the split bucket by bucket instead of merging the buckets into each page, and reaches only followers, each once, up to its cap.
    const followers = new Set(expected(celeb, 'peer'));
    const traversal = await reader.traverse(celeb, [{ type: 'follows', direction: 'in' }], { perHopCap: MAX_PER_HOP_CAP, deadlineMs: 120_000 });
    const reached = traversal.hops[0]!.vertices;
    expect(reached).toHaveLength(Math.min(followers.size, MAX_PER_HOP_CAP));
    expect(new Set(reached).size).toBe(reached.length);
    expect(reached.every((peer) => followers.has(peer))).toBe(true);
    expect(traversal.partial).toEqual(followers.size > MAX_PER_HOP_CAP ? { reason: 'hop_cap', hop: 0 } : undefined);
    const newest = await reader.in('follows', celeb, { limit: 50 });
    expect(newest.items.map((i) => i.peer)).toEqual(expected(celeb, 'newest').slice(0, 50));
  });

  it('an injected checksum mismatch leaves the split FAILED and reads keep coming from the original', { timeout: 300_000 }, async () => {
    await killAll(processes);
    const celeb = 'celeb2';
    for (let i = 0; i < 3_000; i++) void follow(celeb, `h${i}`);
    await producer.flush();
    for (let i = 0; i < 3_000; i += 10) await unfollow(celeb, `h${i}`);
    await producer.flush();
    await waitFor('the fan-out to catch up', caughtUp, 120_000);

    const chain = createSplitChain({ kafka: env.kafka, serde: env.serde, store: env.store, config: env.config, logger: env.logger, stages: ['plan', 'split'] });
    for (const r of chain.values()) runners.push(r);
    await Promise.all([...chain.values()].map((r) => r.start()));
    const { stdout } = await exec(process.execPath, [path.join(REPO_ROOT, 'bin/edgestream.js'), '--config', configFile, 'split', 'follows_in_recent', celeb], { cwd: REPO_ROOT, env: { ...process.env, ...endpointsToEnv(env.endpoints) } });
    expect(stdout).toContain('requested a split of follows_in_recent[celeb2]');
    await waitFor('the copy', async () => (await record('follows_in_recent', celeb))?.status === 'SPLIT', 120_000);

    // Corrupt one copied row: a different value in its bucket, newer than the original's but before the verification.
    const r = (await record('follows_in_recent', celeb)) as WideRowRecord;
    const [victim] = (await env.store.namespace('follows_in_recent').slice(celeb, { limit: 1 })).cells;
    if (victim === undefined) throw new Error('celeb2 has no recent entries');
    await env.store.namespace(r.splitNamespace).put(splitBucketId(celeb, r.generation, bucketOfKey(layoutOf(r), victim.key)), victim.key, Buffer.from('tampered'), victim.writeTime + 1n);

    const verifier = createSplitChain({ kafka: env.kafka, serde: env.serde, store: env.store, config: env.config, logger: env.logger, stages: ['verify'] });
    for (const v of verifier.values()) {
      runners.push(v);
      await v.start();
    }
    await waitFor('the verification', async () => ['FAILED', 'COMPLETED'].includes((await record('follows_in_recent', celeb))?.status ?? ''), 120_000);
    const failed = (await record('follows_in_recent', celeb)) as WideRowRecord;
    expect(failed.status).toBe('FAILED');
    expect(failed.verification).toMatchObject({ mismatchedKeys: 1, sample: [Buffer.from(victim.key).toString('hex')] });
    expect(failed.failure).toContain('checksum mismatch');

    await sleep(3 * env.config.wide.directoryRefreshMs);
    expect(await scan(reader, celeb, 'newest', 100)).toEqual(expected(celeb, 'newest'));
  });
});
