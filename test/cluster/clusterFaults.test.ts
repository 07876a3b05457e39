import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../cli/commandContext.ts';
import { startEdgeService, type RunningService } from '../../cli/commands/serve.ts';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { killNode, restartNode } from '../../stack/clusterStack.ts';
import { createEdgeProducer, type EdgeProducer } from '../../streams/producer/index.ts';
import { createEdgePipeline, type EdgePipeline } from '../../streams/topology/createEdgePipeline.ts';
import { startLocalCluster, type LocalClusterFixture } from '../support/clusterFixture.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from '../support/edgestreamEnv.ts';
import { applyLww, modelKey, type ModelGraph } from '../support/model/applyLww.ts';
import { modelGraphLines } from '../support/model/graphLines.ts';
import { readStoreGraph } from '../support/model/readStoreGraph.ts';
import { syntheticMutations } from '../support/model/syntheticMutations.ts';
import { userId } from '../../cli/workload/syntheticGraph.ts';
import { publishMutations } from '../support/publishMutations.ts';
import { waitForQuiescence } from '../support/waitForQuiescence.ts';

const USERS = 150;
const EVENTS = 1_500;
const TYPES = ['follows', 'likes'];
const log = (line: string) => console.log(`[cluster] ${line}`);

/**
 * Fault tests on the local 3-node cluster (stack/clusterStack.ts) at RF 3, LOCAL_QUORUM and
 * min.insync.replicas 2, against the LWW model: a Cassandra node SIGKILLed mid-ingest, then
 * the leader broker of the input topic's first partition SIGKILLed mid-ingest. Each phase
 * publishes half its events, kills, publishes the rest, waits until the pipeline is quiet and
 * compares the whole store with the model of every event published so far; the log reports
 * events, kill time, repair traffic and time to converge.
 */
describe('on the local cluster (RF 3, LOCAL_QUORUM, min.insync.replicas 2)', () => {
  let cluster: LocalClusterFixture;
  let env: EdgestreamEnv;
  let pipeline: EdgePipeline;
  let producer: EdgeProducer;
  let service: RunningService;
  const published: EdgeMutation[] = [];

  beforeAll(async () => {
    cluster = await startLocalCluster(log);
    env = await createEdgestreamEnv({
      name: 'clusterfaults',
      endpoints: cluster.endpoints,
      durability: cluster.durability,
      // A write whose coordinator dies is retried on another node within the budget.
      // cascadeSettleMs > 2 × (budget + margin) + ttl (edgestreamConfig's rule).
      runtime: { writeRetryBudgetMs: 5_000, cascadeSettleMs: 15_000, tombstoneCacheTtlMs: 300, repairMaxAttempts: 40 },
    });
    pipeline = createEdgePipeline({ kafka: env.kafka, serde: env.serde, store: env.store, config: env.config, logger: env.logger, tuning: { progressIntervalMs: 600_000 } });
    await pipeline.start();
    producer = createEdgeProducer({ kafka: env.kafka, serde: env.serde, config: env.config });
    const ctx: CommandContext = { config: env.config, endpoints: env.endpoints, kafka: async () => env.kafka, registry: async () => env.registry, logger: env.logger, store: async () => env.store };
    service = await startEdgeService(ctx, { port: 0, host: '127.0.0.1' });
  }, 600_000);

  afterAll(async () => {
    await service?.stop().catch(() => {});
    await producer?.close().catch(() => {});
    await pipeline?.stop().catch(() => {});
    await env?.teardown();
    await cluster?.release();
  }, 120_000);

  const repairTraffic = () => pipeline.runners.map((r) => r.metrics()).reduce((n, m) => n + m.sentToRepair, 0);

  /** Publishes half, runs `fault`, publishes the rest; then waits for quiet and returns the timings. */
  async function ingestAround(seed: number, fault: () => Promise<void>) {
    const events = syntheticMutations({ events: EVENTS, users: USERS, seed, baseMicros: BigInt(Date.now() - 3_600_000) * 1000n + BigInt(published.length) * 1_000_000n, idPrefix: `s${seed}` });
    const half = events.length / 2;
    const t0 = Date.now();
    await publishMutations(producer, events.slice(0, half));
    published.push(...events.slice(0, half));
    const tKill = Date.now();
    await fault();
    await publishMutations(producer, events.slice(half));
    published.push(...events.slice(half));
    const tPublished = Date.now();
    const settled = await waitForQuiescence({ admin: env.admin, config: env.config, store: env.store, recount: () => pipeline.recounter!.runOnce(), timeoutMs: 300_000 });
    return { events: events.length, killAtMs: tKill - t0, publishedMs: tPublished - t0, convergedMs: Date.now() - tPublished, quietWaitMs: settled.waitedMs };
  }

  const vertices = () => Array.from({ length: USERS }, (_, i) => userId(i));

  async function expectStoreEqualsModel(model: ModelGraph): Promise<void> {
    expect(await readStoreGraph(env.store, TYPES, vertices())).toEqual(modelGraphLines(model));
  }

  /** Newest pages and degrees of the busiest vertices, read through the HTTP server, against the model. */
  async function expectServerReadsMatch(model: ModelGraph): Promise<number> {
    const busiest = [...model.degrees.entries()].filter(([k]) => k.startsWith(modelKey('follows', 'in', ''))).sort((a, b) => Number(b[1] - a[1])).slice(0, 5);
    let reads = 0;
    for (const [key] of busiest) {
      const vertex = key.split('\u0000')[2] as string;
      for (const direction of ['out', 'in'] as const) {
        const res = await fetch(`${service.url}/v1/vertices/${encodeURIComponent(vertex)}/${direction}/follows?limit=20`);
        expect(res.status).toBe(200);
        const page = (await res.json()) as { items: { peer: string; time: string }[] };
        const expected = (model.newestFirst.get(modelKey('follows', direction, vertex)) ?? []).slice(0, 20).map((n) => ({ peer: n.peer, time: String(n.time) }));
        expect(page.items.map((i) => ({ peer: i.peer, time: i.time })), `${direction} page of ${vertex}`).toEqual(expected);
        reads++;
      }
      const degree = (await (await fetch(`${service.url}/v1/vertices/${encodeURIComponent(vertex)}/degree/follows`)).json()) as { out?: string; in?: string };
      expect(degree, `degree of ${vertex}`).toMatchObject({
        out: String(model.degrees.get(modelKey('follows', 'out', vertex)) ?? 0n),
        in: String(model.degrees.get(modelKey('follows', 'in', vertex)) ?? 0n),
      });
      reads++;
    }
    return reads;
  }

  it('the Cassandra clients know every node at its native port (not the driver default 9042)', async () => {
    const hosts = env.cql.hosts.values().map((h) => `${h.address}${h.isUp() ? '' : ' (down)'}`).sort();
    expect(hosts).toEqual(cluster.endpoints.cassandraContactPoints.slice().sort());
  });

  it('a Cassandra node SIGKILLed mid-ingest: nothing lost, reads through the server exact with the node down', { timeout: 600_000 }, async () => {
    const victim = 'cassandra-1'; // the seed and first contact point: the clients must find the others by themselves
    let pid = 0;
    const repairsBefore = repairTraffic();
    let tRestart = 0;
    const restart = async () => {
      tRestart = Date.now();
      if (pid) await restartNode(cluster.stackConfig, victim, log);
    };
    let run: Awaited<ReturnType<typeof ingestAround>>;
    let repaired: number;
    let reads: number;
    try {
      run = await ingestAround(101, async () => {
        pid = await killNode(cluster.stackConfig, victim);
      });
      repaired = repairTraffic() - repairsBefore;
      const model = applyLww(published);
      await expectStoreEqualsModel(model);
      reads = await expectServerReadsMatch(model);
      expect(await env.dlqCount()).toBe(0);
    } finally {
      await restart(); // the next phase needs every node
    }
    log(`cassandra kill: ${run.events} events, ${victim} (pid ${pid}) SIGKILLed ${run.killAtMs} ms into the ingest, all published after ${run.publishedMs} ms; ` +
      `repair traffic ${repaired}; converged (pipeline quiet, store = model) ${run.convergedMs} ms after the last publish; ` +
      `${reads} server reads exact at LOCAL_QUORUM with the node down; ${victim} back ${Date.now() - tRestart} ms after its restart`);
    // Not asserted: with one node down a LOCAL_QUORUM write needs both live replicas within
    // write_request_timeout (2 s), which the loaded 2-core machine misses at times; such writes
    // go through the repair topic and the store still equals the model (asserted above).
  });

  it('the leader broker of the input topic SIGKILLed mid-ingest: producer and processors carry on, nothing lost', { timeout: 600_000 }, async () => {
    const metadata = await env.admin.fetchTopicMetadata({ topics: [env.topics.input] });
    const leader = metadata.topics[0]!.partitions.find((p) => p.partitionId === 0)!.leader;
    const victim = `kafka-${leader}`;
    let pid = 0;
    const repairsBefore = repairTraffic();
    let run: Awaited<ReturnType<typeof ingestAround>>;
    let newLeader: number;
    let repaired: number;
    let tRestart = 0;
    try {
      run = await ingestAround(202, async () => {
        pid = await killNode(cluster.stackConfig, victim);
      });
      repaired = repairTraffic() - repairsBefore;
      const after = await env.admin.fetchTopicMetadata({ topics: [env.topics.input] });
      newLeader = after.topics[0]!.partitions.find((p) => p.partitionId === 0)!.leader;
      await expectStoreEqualsModel(applyLww(published));
      expect(await env.dlqCount()).toBe(0);
    } finally {
      tRestart = Date.now();
      if (pid) await restartNode(cluster.stackConfig, victim, log);
    }
    log(`broker kill: ${run.events} events, ${victim} (leader of partition 0, pid ${pid}) SIGKILLed ${run.killAtMs} ms into the ingest, partition 0 led by broker ${newLeader} after; ` +
      `all published after ${run.publishedMs} ms; repair traffic ${repaired}; converged ${run.convergedMs} ms after the last publish; ${victim} back ${Date.now() - tRestart} ms after its restart`);
    expect(newLeader).not.toBe(leader);
  });
});
