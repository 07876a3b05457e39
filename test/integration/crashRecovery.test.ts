import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRandom } from '../../cli/workload/createRandom.ts';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { syntheticMutations } from '../support/model/syntheticMutations.ts';
import type { ProcessorProcess } from '../support/processorProcess.ts';
import { openProcessRun, publishPaced, sleep, storeAgainstModel, type ProcessRun } from '../support/processRun.ts';
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
 * partitions back, so the file takes about 3 minutes. IT_CRASH_SEED=<n>
 * replays a workload and kill schedule; IT_KEEP_LOGS=1 keeps the processes'
 * logs (their directory is printed).
 */
const EVENTS = 30_000;
const KILLS = 5;
const STAGES = ['fanout', 'repair', 'cascade', 'recount'];
const PUBLISH_PER_SEC = 400;

describe('processor process killed with SIGKILL during ingest', () => {
  let run: ProcessRun;

  beforeAll(async () => {
    run = await openProcessRun('crash', 3);
  });

  afterAll(async () => {
    await run?.close();
  });

  it(`loses nothing and adds nothing across ${KILLS} SIGKILLs of the processor during a ${EVENTS}-event ingest`, { timeout: 900_000 }, async () => {
    const seed = Number(process.env['IT_CRASH_SEED'] ?? Date.now() % 1_000_000);
    const random = createRandom(seed);
    const baseMicros = BigInt(Date.now() - 10 * 60_000) * 1000n;
    const events: EdgeMutation[] = syntheticMutations({ events: EVENTS, users: 2_000, seed, baseMicros, idPrefix: `c${seed}` });
    const t0 = Date.now();
    const since = () => Date.now() - t0;
    const { env } = run;
    const committed = () => run.fanOutCommitted();
    let generation = 0;
    const start = () => run.start(STAGES, `${generation++}`);

    let processor: ProcessorProcess = start();
    let published = 0;
    // The ingest is spread over the kill schedule (about PUBLISH_PER_SEC), so processes die while events still arrive.
    const publishing = publishPaced(run.producer, events, PUBLISH_PER_SEC, t0, (n) => (published = n));
    publishing.catch(() => {}); // awaited below

    const kills: { kill: number; atMs: number; pid: number; ranMs: number; committed: number; published: number; exit: string }[] = [];
    for (let k = 1; k <= KILLS; k++) {
      // Let the new process make real progress (join the group, process a few thousand events), then kill it mid-work.
      const from = await committed();
      const target = from + 1_000 + Math.floor(random() * 3_500); // five kills stay within the ingest: at most 22 500 of EVENTS
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
    const { expected, actual, missing, extra } = await storeAgainstModel(env, events);
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
