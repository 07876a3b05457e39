import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../cli/commandContext.ts';
import { startEdgeService, type RunningService } from '../../cli/commands/serve.ts';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { EdgeOp } from '../../schemas/index.ts';
import { killNode, restartNode } from '../../stack/clusterStack.ts';
import { createEdgeProducer, type EdgeProducer } from '../../streams/producer/index.ts';
import { createEdgePipeline, type EdgePipeline } from '../../streams/topology/createEdgePipeline.ts';
import { clusterStackConfig } from '../support/clusterFixture.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from '../support/edgestreamEnv.ts';
import { applyLww, modelKey, type ModelGraph } from '../support/model/applyLww.ts';
import { modelGraphLines } from '../support/model/graphLines.ts';
import { readStoreGraph } from '../support/model/readStoreGraph.ts';
import { syntheticMutations } from '../support/model/syntheticMutations.ts';
import { userId } from '../../cli/workload/syntheticGraph.ts';
import { publishMutations } from '../support/publishMutations.ts';
import { describeReplicas, partitionsOfNewestLine } from '../support/replicaDiagnosis.ts';
import { waitForQuiescence } from '../support/waitForQuiescence.ts';
import { sleep } from '../support/processRun.ts';

const USERS = 150;
const EVENTS = 1_000;
/** Fewer while two nodes are down: every write of them parks in the repair topic and drains after the restart. */
const TWO_DOWN_EVENTS = 600;
/** Follows posted to the HTTP server right after the broker kill. */
const HTTP_WRITES = 60;
const TYPES = ['follows', 'likes'];
const log = (line: string) => console.log(`[cluster] ${line}`);

/**
 * Fault tests on the local 3-node cluster (stack/clusterStack.ts) at RF 3, LOCAL_QUORUM and
 * min.insync.replicas 2, against the LWW model: a Cassandra node SIGKILLed mid-ingest (reads
 * through the server checked with it down), then a second one (writes park in the repair
 * topic until both are back), then the leader broker of the input topic's
 * first partition SIGKILLed mid-ingest. Each phase
 * publishes half its events, kills, publishes the rest, waits until the pipeline is quiet and
 * compares the whole store with the model of every event published so far; the log reports
 * events, kill time, repair traffic and time to converge.
 */
describe('on the local cluster (RF 3, LOCAL_QUORUM, min.insync.replicas 2)', () => {
  const stackConfig = clusterStackConfig();
  let env: EdgestreamEnv;
  let pipeline: EdgePipeline;
  let producer: EdgeProducer;
  let service: RunningService;
  const published: EdgeMutation[] = [];

  beforeAll(async () => {
    // The cluster and its durability (RF 3, LOCAL_QUORUM, min.insync.replicas 2) come from clusterGlobalSetup.
    env = await createEdgestreamEnv({
      name: 'clusterfaults',
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
  }, 120_000);

  const repairTraffic = () => pipeline.runners.map((r) => r.metrics()).reduce((n, m) => n + m.sentToRepair, 0);

  /** Publishes half, runs `fault`, publishes the rest, runs `recover`; then waits for quiet and returns the timings. */
  async function ingestAround(seed: number, fault: () => Promise<void>, recover: () => Promise<void> = async () => {}, count = EVENTS) {
    const events = syntheticMutations({ events: count, users: USERS, seed, baseMicros: BigInt(Date.now() - 3_600_000) * 1000n + BigInt(published.length) * 1_000_000n, idPrefix: `s${seed}` });
    const half = events.length / 2;
    const t0 = Date.now();
    await publishMutations(producer, events.slice(0, half));
    published.push(...events.slice(0, half));
    const tKill = Date.now();
    await fault();
    await publishMutations(producer, events.slice(half));
    published.push(...events.slice(half));
    const tPublished = Date.now();
    await recover();
    const settled = await waitForQuiescence({ admin: env.admin, config: env.config, store: env.store, recount: () => pipeline.recounter!.runOnce(), timeoutMs: 300_000 });
    return { events: events.length, killAtMs: tKill - t0, publishedMs: tPublished - t0, convergedMs: Date.now() - tPublished, quietWaitMs: settled.waitedMs };
  }

  const vertices = () => Array.from({ length: USERS }, (_, i) => userId(i));

  async function expectStoreEqualsModel(model: ModelGraph): Promise<void> {
    const actual = await readStoreGraph(env.store, TYPES, vertices());
    const expected = modelGraphLines(model);
    const wanted = new Set(expected);
    // A newest page the model does not have (CI once found stale exact entries after two nodes came back):
    // what each replica holds of its index and link partitions, for the log beside the diff.
    for (const line of actual.filter((l) => !wanted.has(l)).slice(0, 3)) {
      const at = partitionsOfNewestLine(line);
      if (at === undefined) continue;
      for (const table of [at.table, at.links]) {
        for (const replica of await describeReplicas(env.cql, env.config.cassandra.keyspace, table, at.id)) log(`mismatch: ${replica}`);
      }
    }
    expect(actual).toEqual(expected);
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
    // A 2-hop traversal from the busiest of them: reached vertices per hop, against the model's breadth-first walk.
    const start = busiest[0]![0].split('\u0000')[2] as string;
    const walk = (await (await fetch(`${service.url}/v1/vertices/${encodeURIComponent(start)}/traversal?hops=follows:in&hops=follows:out&cap=100000`)).json()) as { hops: { vertices: string[] }[]; truncated: boolean };
    expect({ truncated: walk.truncated, hops: walk.hops.map((h) => [...h.vertices].sort()) }, `2-hop traversal from ${start}`).toEqual({
      truncated: false,
      hops: modelWalk(model, start, ['in', 'out']),
    });
    return reads + 1;
  }

  it('the Cassandra clients know every node at its native port (not the driver default 9042)', async () => {
    const hosts = env.cql.hosts.values().map((h) => `${h.address}${h.isUp() ? '' : ' (down)'}`).sort();
    expect(hosts).toEqual(env.endpoints.cassandraContactPoints.slice().sort());
  });

  it('Cassandra nodes SIGKILLed mid-ingest: with one down nothing is lost and reads through the server are exact; with two down writes park in the repair topic and converge after their restart', { timeout: 900_000 }, async () => {
    // The seed and first contact point goes first: the clients must find the others by themselves.
    const victims = ['cassandra-1', 'cassandra-2'] as const;
    const pids = new Map<string, number>();
    const restart = async () => {
      const t = Date.now();
      await Promise.all([...pids.keys()].map((v) => restartNode(stackConfig, v, log)));
      pids.clear();
      return Date.now() - t;
    };
    try {
      // One of three replicas down: LOCAL_QUORUM still has two.
      let repairsBefore = repairTraffic();
      const one = await ingestAround(101, async () => {
        pids.set(victims[0], await killNode(stackConfig, victims[0]));
      });
      const model = applyLww(published);
      await expectStoreEqualsModel(model);
      const reads = await expectServerReadsMatch(model);
      expect(await env.dlqCount()).toBe(0);
      log(`one node down: ${one.events} events, ${victims[0]} (pid ${pids.get(victims[0])}) SIGKILLed ${one.killAtMs} ms into the ingest, all published after ${one.publishedMs} ms; ` +
        `repair traffic ${repairTraffic() - repairsBefore}; converged (pipeline quiet, store = model) ${one.convergedMs} ms after the last publish; ${reads} server reads exact at LOCAL_QUORUM with the node down`);
      // Not asserted: with one node down a LOCAL_QUORUM write needs both live replicas within
      // write_request_timeout (2 s), which the loaded 2-core machine misses at times; such writes
      // go through the repair topic and the store still equals the model (asserted above).

      // Two of three down: no LOCAL_QUORUM write can succeed until they are back.
      repairsBefore = repairTraffic();
      let tKill = 0;
      let downMs = 0;
      let backMs = 0;
      const two = await ingestAround(303, async () => {
        pids.set(victims[1], await killNode(stackConfig, victims[1]));
        tKill = Date.now();
      }, async () => {
        const deadline = Date.now() + 120_000;
        while (repairTraffic() === repairsBefore && Date.now() < deadline) await sleep(250);
        downMs = Date.now() - tKill;
        backMs = await restart();
      }, TWO_DOWN_EVENTS);
      const repaired = repairTraffic() - repairsBefore;
      expect(repaired, 'writes sent to the repair topic while two of three replicas were down').toBeGreaterThan(0);
      await expectStoreEqualsModel(applyLww(published));
      expect(await env.dlqCount()).toBe(0);
      log(`two nodes down: ${two.events} events, ${victims[1]} SIGKILLed ${two.killAtMs} ms into the ingest (${victims[0]} still down), both down ${downMs} ms; ` +
        `all published after ${two.publishedMs} ms; repair traffic ${repaired}; both back ${backMs} ms after their restart; converged ${two.convergedMs} ms after the last publish`);
    } finally {
      if (pids.size > 0) await restart(); // the next test needs every node
    }
  });

  it('the leader broker of the input topic SIGKILLed mid-ingest: the producer, the HTTP write endpoint and the processors carry on, nothing lost', { timeout: 600_000 }, async () => {
    const metadata = await env.admin.fetchTopicMetadata({ topics: [env.topics.input] });
    const leader = metadata.topics[0]!.partitions.find((p) => p.partitionId === 0)!.leader;
    const victim = `kafka-${leader}`;
    let pid = 0;
    const repairsBefore = repairTraffic();
    let run: Awaited<ReturnType<typeof ingestAround>>;
    let newLeader: number;
    let repaired: number;
    let tRestart = 0;
    let httpWrites = { accepted: 0, retried: 0 };
    try {
      run = await ingestAround(202, async () => {
        pid = await killNode(stackConfig, victim);
        // The HTTP write endpoint carries on too: its follows, keyed to every input partition, go through the server's producer.
        httpWrites = await postFollowsThroughServer(HTTP_WRITES, `h202`);
      });
      repaired = repairTraffic() - repairsBefore;
      const after = await env.admin.fetchTopicMetadata({ topics: [env.topics.input] });
      newLeader = after.topics[0]!.partitions.find((p) => p.partitionId === 0)!.leader;
      await expectStoreEqualsModel(applyLww(published));
      expect(await env.dlqCount()).toBe(0);
    } finally {
      tRestart = Date.now();
      if (pid) await restartNode(stackConfig, victim, log);
    }
    log(`broker kill: ${run.events} events, ${victim} (leader of partition 0, pid ${pid}) SIGKILLed ${run.killAtMs} ms into the ingest, partition 0 led by broker ${newLeader} after; ` +
      `all published after ${run.publishedMs} ms; ${httpWrites.accepted} follows through the HTTP server with ${httpWrites.retried} retried after a 503; repair traffic ${repaired}; converged ${run.convergedMs} ms after the last publish; ${victim} back ${Date.now() - tRestart} ms after its restart`);
    expect(newLeader).not.toBe(leader);
    expect(httpWrites.accepted).toBe(HTTP_WRITES);
  });

  /**
   * POSTs `count` follows to /v1/mutations, each retried (same mutationId) after a 503 until
   * Kafka acknowledges it, and adds what the server accepted (its mutationId and event time) to
   * the model. A retried write the broker had appended after all is an earlier event of the same
   * edge and loses to the accepted one.
   */
  async function postFollowsThroughServer(count: number, prefix: string): Promise<{ accepted: number; retried: number }> {
    let retried = 0;
    const accepted = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const [src, dst] = [userId(i % USERS), userId((i * 7 + 3) % USERS)];
        const body = JSON.stringify({ op: 'ADD_EDGE', type: 'follows', src, dst, mutationId: `${prefix}-${i}` });
        for (let attempt = 1; ; attempt++) {
          const res = await fetch(`${service.url}/v1/mutations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
          if (res.status === 202) {
            const { mutationId, eventTime } = (await res.json()) as { mutationId: string; eventTime: string };
            const event: EdgeMutation = { mutation_id: mutationId, op: EdgeOp.ADD_EDGE, edge_type: 'follows', src, dst, event_time: BigInt(eventTime), properties: {}, property_keys: [] };
            return event;
          }
          if (res.status !== 503 || attempt >= 30) throw new Error(`POST /v1/mutations answered ${res.status} on attempt ${attempt}: ${await res.text()}`);
          retried++;
          await sleep(Number(res.headers.get('retry-after') ?? '1') * 1_000);
        }
      }),
    );
    published.push(...accepted);
    return { accepted: accepted.length, retried };
  }
});

/** The model's breadth-first walk over ACTIVE follows: per hop the vertices first reached there (never the start or an earlier hop's), sorted. */
function modelWalk(model: ModelGraph, start: string, directions: readonly ('in' | 'out')[]): string[][] {
  const seen = new Set([start]);
  let frontier = [start];
  return directions.map((direction) => {
    const next = new Set<string>();
    for (const v of frontier) for (const n of model.newestFirst.get(modelKey('follows', direction, v)) ?? []) if (!seen.has(n.peer)) next.add(n.peer);
    for (const v of next) seen.add(v);
    frontier = [...next];
    return [...next].sort();
  });
}
