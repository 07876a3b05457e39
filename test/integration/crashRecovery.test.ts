import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupLag } from '../../cli/commands/lag.ts';
import { createRandom } from '../../cli/workload/createRandom.ts';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { endpointsToEnv } from '../../stack/endpoints.ts';
import { createEdgeProducer, type EdgeProducer } from '../../streams/producer/index.ts';
import { edgePipelineGroups } from '../../streams/topology/createEdgePipeline.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from '../support/edgestreamEnv.ts';
import { applyLww } from '../support/model/applyLww.ts';
import { modelGraphLines } from '../support/model/graphLines.ts';
import { lineDiff, readFullStoreGraph } from '../support/model/readFullStoreGraph.ts';
import { syntheticMutations } from '../support/model/syntheticMutations.ts';
import { killAll, startProcessorProcess, type ProcessorProcess } from '../support/processorProcess.ts';
import { publishMutations } from '../support/publishMutations.ts';
import { waitForQuiescence } from '../support/waitForQuiescence.ts';

/**
 * Crash recovery of the processor *process*: `edgestream run fanout repair
 * cascade recount` runs as a child process and is SIGKILLed at random points
 * while a 50k-event ingest (synthetic Zipf follows, uniform likes, unfollows,
 * property updates, property deletes and bag clears, node removals; explicit
 * ids and jittered event times) is published through the SDK from this
 * process, and restarted after each kill. After the last restart, once the
 * pipeline is quiet, the whole Cassandra store (every partition of every
 * namespace, enumerated with CQL) must equal the reference model applyLww of
 * the published events: nothing lost, nothing extra, nothing stale. The DLQ
 * must be empty.
 *
 * Each restart waits out the dead member's consumer-group session (the
 * runtime's 30 s default, not configurable from the CLI) before it gets its
 * partitions back, so the file takes about 4 minutes. IT_CRASH_SEED=<n>
 * replays a workload and kill schedule; IT_KEEP_LOGS=1 keeps the processes'
 * logs (their directory is printed).
 */
const EVENTS = 50_000;
const KILLS = 5;
const STAGES = ['fanout', 'repair', 'cascade', 'recount'];
const PUBLISH_PER_SEC = 400;

describe('processor process killed with SIGKILL during ingest', () => {
  let env: EdgestreamEnv;
  let producer: EdgeProducer;
  let tmp: string;
  let configFile: string;
  const processes = new Set<ProcessorProcess>();

  beforeAll(async () => {
    env = await createEdgestreamEnv({ name: 'crash', partitions: 3 });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'edgestream-crash-'));
    configFile = path.join(tmp, 'edgestream.config.json');
    console.log(`processor config and logs in ${tmp}`);
    fs.writeFileSync(configFile, JSON.stringify(env.configInput, null, 2));
    producer = createEdgeProducer({ kafka: env.kafka, serde: env.serde, config: env.config });
  });

  afterAll(async () => {
    await killAll(processes); // never leave a child behind, whatever happened
    await producer?.close().catch(() => {});
    await env?.teardown();
    if (tmp && !process.env['IT_KEEP_LOGS']) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it(`loses nothing and adds nothing across ${KILLS} SIGKILLs of the processor during a ${EVENTS}-event ingest`, { timeout: 900_000 }, async () => {
    const seed = Number(process.env['IT_CRASH_SEED'] ?? Date.now() % 1_000_000);
    const random = createRandom(seed);
    const baseMicros = BigInt(Date.now() - 10 * 60_000) * 1000n;
    const events: EdgeMutation[] = syntheticMutations({ events: EVENTS, users: 2_000, seed, baseMicros, idPrefix: `c${seed}` });
    const t0 = Date.now();
    const since = () => Date.now() - t0;
    const fanOut = edgePipelineGroups(env.config).find((g) => g.stage === 'fanout');
    if (!fanOut) throw new Error('no fan-out group');
    /** Records of the input topic the fan-out has committed (its progress). */
    const committed = async () => {
      const lag = await groupLag(env.admin, fanOut.group, fanOut.topic);
      return lag.partitions.reduce((n, p) => n + (p.committed === '-1' ? 0 : Number(p.committed)), 0);
    };
    const childEnv = { ...endpointsToEnv(env.endpoints), LOG_LEVEL: 'info' };
    let generation = 0;
    const start = () => startProcessorProcess({ configFile, stages: STAGES, env: childEnv, logPath: path.join(tmp, `processor-${generation++}.log`), registry: processes });

    let processor = start();
    let published = 0;
    // The ingest is spread over the kill schedule (about PUBLISH_PER_SEC), so processes die while events still arrive.
    const publishing = (async () => {
      for (let i = 0; i < events.length; i += 1_000) {
        await publishMutations(producer, events.slice(i, i + 1_000));
        published = Math.min(events.length, i + 1_000);
        await sleep(t0 + (published * 1_000) / PUBLISH_PER_SEC - Date.now());
      }
    })();
    publishing.catch(() => {}); // awaited below

    const kills: { kill: number; atMs: number; pid: number; ranMs: number; committed: number; published: number; exit: string }[] = [];
    for (let k = 1; k <= KILLS; k++) {
      // Let the new process make real progress (join the group, process a few thousand events), then kill it mid-work.
      const from = await committed();
      const target = from + 1_500 + Math.floor(random() * 4_500);
      const deadline = Date.now() + 180_000;
      while ((await committed()) < target) {
        if (!processor.alive()) throw new Error(`processor ${processor.pid} died on its own:\n${processor.tail()}`);
        if (Date.now() > deadline) throw new Error(`processor ${processor.pid} made no progress to ${target} (at ${await committed()}):\n${processor.tail()}`);
        await sleep(100);
      }
      await sleep(Math.floor(random() * 1_000));
      const at = since();
      const progress = await committed();
      const exit = await processor.kill('SIGKILL');
      kills.push({ kill: k, atMs: at, pid: processor.pid, ranMs: Date.now() - processor.startedAt, committed: progress, published, exit: `${exit.signal ?? exit.code}` });
      console.log(`kill ${k}: SIGKILL pid ${processor.pid} at ${at} ms (ran ${kills.at(-1)?.ranMs} ms), fan-out committed ${progress}, published ${published}/${EVENTS}`);
      expect(exit.signal).toBe('SIGKILL');
      processor = start();
    }

    await publishing;
    // Every kill hit the ingest: the fan-out had committed only part of the events.
    expect(kills.map((k) => k.committed < EVENTS)).toEqual(kills.map(() => true));
    const lastStart = processor.startedAt - t0;
    const quiet = await waitForQuiescence({ admin: env.admin, config: env.config, store: env.store, timeoutMs: 300_000, pollMs: 500 }).catch((e: unknown) => {
      throw new Error(`${e instanceof Error ? e.message : String(e)}\nlast processor log:\n${processor.tail()}`);
    });
    console.log(`quiet at ${since()} ms, ${quiet.waitedMs} ms after the last restart (at ${lastStart} ms); the input topic holds ${await committed()} records (cascades included)`);

    expect(await env.dlqCount()).toBe(0);
    const expected = modelGraphLines(applyLww(events));
    const actual = await readFullStoreGraph(env.store, env.cql, env.config.cassandra.keyspace, env.config.edgeTypes.map((t) => t.name));
    const { missing, extra } = lineDiff(expected, actual);
    const count = (lines: readonly string[], prefix: string, contains = '') => lines.filter((l) => l.startsWith(prefix) && l.includes(contains)).length;
    console.log(
      `final (seed ${seed}, ${kills.length} kills at ${kills.map((k) => `${k.atMs}ms`).join(', ')}): ` +
        `${EVENTS} events (${events.filter((e) => e.op === 'REMOVE_NODE').length} REMOVE_NODE); ` +
        `store: ${count(actual, 'link-out')} links (${count(actual, 'link-out', ' ACTIVE@')} active), ${count(actual, 'props ')} properties, ` +
        `${count(actual, 'degree ')} degrees, ${count(actual, 'newest ')} newest-first lists, ${count(actual, 'tombstone ')} node tombstones; ` +
        `model: ${expected.length} lines, store: ${actual.length} lines; missing ${missing.length}, extra ${extra.length}; total ${since()} ms`,
    );
    expect({ missing: missing.slice(0, 20), extra: extra.slice(0, 20), missingCount: missing.length, extraCount: extra.length }).toEqual({
      missing: [],
      extra: [],
      missingCount: 0,
      extraCount: 0,
    });

    const stopped = await processor.kill('SIGTERM');
    expect(stopped, processor.tail()).toEqual({ code: 0, signal: null });
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
