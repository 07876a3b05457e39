import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRandom } from '../../cli/workload/createRandom.ts';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { syntheticMutations } from '../support/model/syntheticMutations.ts';
import type { ProcessorProcess } from '../support/processorProcess.ts';
import { openProcessRun, publishPaced, sleep, storeAgainstModel, type ProcessRun } from '../support/processRun.ts';
import { waitForQuiescence } from '../support/waitForQuiescence.ts';
import { edgePipelineGroups } from '../../streams/topology/edgePipelineGroups.ts';

/**
 * Issue 25 §3 and §4 on the local 3-node cluster (RF 3, LOCAL_QUORUM): the processor as N separate processes in one
 * consumer group per stage (`edgestream run fanout repair cascade recount`,
 * the recounter's shards owned by assignment). During a 6 000-event ingest
 * (Zipf follows, likes, unfollows, property updates and deletes, bag clears,
 * node removals) the instances scale 1 → 3, one is SIGSTOPped past its
 * group session (the others take its partitions and shards) and then
 * SIGCONTed (it wakes up holding a batch it no longer owns), one is
 * SIGKILLed, one leaves with SIGTERM, so 1 remains. Once quiet, the whole
 * store must equal the LWW model of the published events (links, both
 * directions, properties, newest-first lists, degrees, node tombstones):
 * nothing lost, nothing extra; the DLQ empty. IT_INSTANCES_SEED=<n> replays.
 */
// Sized for the cluster's quorum writes on 2 cores beside seven JVMs (the single-node stack took 30 000 at 300/s); slow enough that the scaling happens mid-ingest.
const EVENTS = 6_000;
const STAGES = ['fanout', 'repair', 'cascade', 'recount'];
const PUBLISH_PER_SEC = 60;
/** Fan-out progress between two steps: a fifteenth of the ingest. */
const STEP = Math.floor(EVENTS / 15);
/** Past the cluster env's session timeout (runtime.sessionTimeoutMs 15 s, clusterFixture.ts) with a margin. */
const PAST_SESSION_MS = 25_000;

describe('many processor instances as separate processes', () => {
  let run: ProcessRun;
  const stopped = new Set<number>();

  beforeAll(async () => {
    run = await openProcessRun('instances', 6);
  });

  afterAll(async () => {
    for (const pid of stopped) signal(pid, 'SIGCONT'); // let a stopped process run into the SIGKILL
    await run?.close();
  });

  it(`scaled 1 → 3 → 1 during a ${EVENTS}-event ingest, one paused past its session, one SIGKILLed: the store equals the LWW model`, { timeout: 900_000 }, async () => {
    const seed = Number(process.env['IT_INSTANCES_SEED'] ?? Date.now() % 1_000_000);
    const random = createRandom(seed);
    const baseMicros = BigInt(Date.now() - 10 * 60_000) * 1000n;
    const events: EdgeMutation[] = syntheticMutations({ events: EVENTS, users: 2_000, seed, baseMicros, idPrefix: `i${seed}` });
    const t0 = Date.now();
    const since = () => Date.now() - t0;
    const { env } = run;
    const committed = () => run.fanOutCommitted();
    const start = (name: string) => run.start(STAGES, name);
    const steps: string[] = [];
    const step = async (what: string, act: () => Promise<unknown> | unknown) => {
      await act();
      const line = `${since()} ms: ${what} (fan-out committed ${await committed()}, published ${published}/${EVENTS})`;
      steps.push(line);
      console.log(line);
    };
    /** Waits until the fan-out committed `more` events beyond now, with every listed instance alive. */
    const progress = async (more: number, alive: readonly ProcessorProcess[]) => {
      const target = (await committed()) + more;
      const deadline = Date.now() + 240_000;
      while ((await committed()) < Math.min(target, EVENTS)) {
        for (const p of alive) if (!p.alive()) throw new Error(`processor ${p.pid} died on its own:\n${p.tail()}`);
        if (Date.now() > deadline) throw new Error(`no progress to ${target} (at ${await committed()})`);
        await sleep(200);
      }
      await sleep(Math.floor(random() * 1_000));
    };

    const fanOutGroup = edgePipelineGroups(env.config).find((g) => g.stage === 'fanout')!.group;
    /** Waits until `n` members of the fan-out group hold partitions, with every listed instance alive. */
    const membersHoldingPartitions = async (n: number, alive: readonly ProcessorProcess[]) => {
      const deadline = Date.now() + 180_000;
      for (;;) {
        for (const p of alive) if (!p.alive()) throw new Error(`processor ${p.pid} died on its own:\n${p.tail()}`);
        const { members } = await env.admin.describeGroup(fanOutGroup);
        if (members.filter((m) => Object.values(m.assignment).some((ps) => ps.length > 0)).length >= n) return;
        if (Date.now() > deadline) throw new Error(`the fan-out group did not reach ${n} members holding partitions in 180 s`);
        await sleep(500);
      }
    };

    let published = 0;
    const publishing = publishPaced(run.producer, events, PUBLISH_PER_SEC, t0, (n) => (published = n));
    publishing.catch(() => {}); // awaited below

    const a = start('a');
    await progress(STEP, [a]);
    let b: ProcessorProcess | undefined;
    let c: ProcessorProcess | undefined;
    await step('1 → 3 instances', () => {
      b = start('b');
      c = start('c');
    });
    if (!b || !c) throw new Error('not started');
    const [pb, pc] = [b, c];
    // Paused before it joined, b would only time out connecting: wait until all three hold partitions.
    await step('all 3 in the fan-out group', () => membersHoldingPartitions(3, [a, pb, pc]));
    await progress(2 * STEP, [a, pb, pc]);
    await step(`SIGSTOP b (pid ${pb.pid}) for ${PAST_SESSION_MS} ms`, () => {
      signal(pb.pid, 'SIGSTOP');
      stopped.add(pb.pid);
    });
    await sleep(PAST_SESSION_MS);
    await step('SIGCONT b', () => {
      signal(pb.pid, 'SIGCONT');
      stopped.delete(pb.pid);
    });
    await progress(STEP, [a, pb, pc]);
    await step(`SIGKILL c (pid ${pc.pid})`, async () => expect((await pc.kill('SIGKILL')).signal).toBe('SIGKILL'));
    await progress(STEP, [a, pb]);
    await step(`SIGTERM b (pid ${pb.pid}): back to 1 instance`, async () => expect(await pb.kill('SIGTERM'), pb.tail()).toEqual({ code: 0, signal: null }));

    await publishing;
    const quiet = await waitForQuiescence({ admin: env.admin, config: env.config, store: env.store, timeoutMs: 300_000, pollMs: 500 }).catch((e: unknown) => {
      throw new Error(`${e instanceof Error ? e.message : String(e)}\nlast log of a:\n${a.tail()}`);
    });
    console.log(`quiet at ${since()} ms (waited ${quiet.waitedMs} ms after the publishing ended)`);

    expect(await env.dlqCount()).toBe(0);
    const { expected, actual, missing, extra } = await storeAgainstModel(env, events);
    console.log(`final (seed ${seed}): ${EVENTS} events; model ${expected.length} lines, store ${actual.length}; missing ${missing.length}, extra ${extra.length}; ${since()} ms\n${steps.join('\n')}`);
    expect({ missing: missing.slice(0, 20), extra: extra.slice(0, 20), missingCount: missing.length, extraCount: extra.length }).toEqual({ missing: [], extra: [], missingCount: 0, extraCount: 0 });

    expect(await a.kill('SIGTERM'), a.tail()).toEqual({ code: 0, signal: null });
  });
});

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}
