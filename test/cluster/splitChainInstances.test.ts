import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fanOutWaves } from '../../bench/shared/fanOutWaves.ts';
import { groupsLag } from '../../cli/commands/lag.ts';
import { splitCommand } from '../../cli/commands/splits.ts';
import { createEdgeReader, createStorePartitionReader, type EdgeReader } from '../../reads/index.ts';
import { createServingPartitions, type ServingPartitions } from '../../reads/split/createServingPartitions.ts';
import { EdgeOp } from '../../schemas/index.ts';
import { bucketCount, layoutOf, splitBucketId, type WideRowRecord } from '../../sinks/namespaces/index.ts';
import { mapBoundedOrThrow } from '../../sinks/store/mapBounded.ts';
import type { Mutation } from '../../sinks/store/index.ts';
import { createWideRowRepository, type WideRowRepository } from '../../sinks/wide/index.ts';
import { createWidePartitionPublisher, type WidePartitionPublisher } from '../../streams/producer/index.ts';
import { edgePipelineGroups } from '../../streams/topology/edgePipelineGroups.ts';
import { createFollowersModel, type FollowersModel } from '../support/followersModel.ts';
import type { ProcessorProcess } from '../support/processorProcess.ts';
import { openProcessRun, sleep, type ProcessRun } from '../support/processRun.ts';
import { waitFor } from '../support/waitFor.ts';

/**
 * Issue 25 §3 and §4 for the split chain on the local 3-node cluster (RF 3, LOCAL_QUORUM): three `edgestream run fanout repair plan split verify`
 * processes in one consumer group per stage split both in-namespaces of a celebrity while follows
 * and unfollows keep arriving through the fan-out. The instance copying the first namespace is
 * SIGKILLed mid-copy (another resumes from the copy checkpoint); the one copying the second is
 * SIGSTOPped past its group session mid-copy (the last one resumes it) and then SIGCONTed, waking
 * with a copy it no longer owns. A split status never goes back, both splits complete with equal
 * checksums, and reads through the splits equal the model. The followers are written straight to
 * the store, the cells the fan-out writes (bench/shared/fanOutWaves.ts): the pipeline's quorum
 * ingest on 2 cores would take minutes; degrees are not checked for that reason.
 */
// Enough pages (1 000 rows each) that the test catches each copy between its first checkpoint and its end.
const FOLLOWERS = 12_000;
const STAGES = ['fanout', 'repair', 'plan', 'split', 'verify'];
const NAMESPACES = ['follows_in', 'follows_in_recent'] as const;
const CELEB = 'celeb';
/** Past the cluster env's session timeout (runtime.sessionTimeoutMs 15 s, clusterFixture.ts) with a margin. */
const PAST_SESSION_MS = 25_000;
/** Statuses in the order a split goes through them; FAILED fails the test. */
const STATUS_ORDER = ['PLANNING', 'PLANNED', 'SPLITTING', 'SPLIT', 'COMPLETED'];

describe('the split chain as separate processes on the cluster', () => {
  let run: ProcessRun;
  let model: FollowersModel;
  let repository: WideRowRepository;
  let publisher: WidePartitionPublisher;
  let serving: ServingPartitions;
  let reader: EdgeReader;
  let originalReader: EdgeReader;
  const stopped = new Set<number>();

  beforeAll(async () => {
    run = await openProcessRun('splits', 3, {
      wide: { directoryRefreshMs: 1_000, verifySettleMs: 3_000, targetBucketBytes: 256 << 10, maxBuckets: 8, thresholdRows: 1_000_000, windowMs: 600_000, coolDownMs: 600_000 },
    });
    model = createFollowersModel(run.producer, BigInt(Date.now() - 3_600_000) * 1000n);
    repository = createWideRowRepository(run.env.store);
    publisher = createWidePartitionPublisher({ kafka: run.env.kafka, serde: run.env.serde, config: run.env.config, logger: run.env.logger });
    serving = createServingPartitions(run.env.store, run.env.config);
    await serving.start();
    reader = createEdgeReader({ partitions: serving.partitions, config: run.env.config });
    originalReader = createEdgeReader({ partitions: createStorePartitionReader(run.env.store), config: run.env.config });
  });

  afterAll(async () => {
    for (const pid of stopped) signal(pid, 'SIGCONT'); // let a stopped process run into the SIGKILL
    serving?.stop();
    await publisher?.close().catch(() => {});
    await run?.close();
  });

  it(`splits a ${FOLLOWERS}-follower celebrity with one copier SIGKILLed and one SIGSTOPped past its session mid-copy`, { timeout: 900_000 }, async () => {
    const { env } = run;
    const t0 = Date.now();
    const since = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
    const steps: string[] = [];
    const step = (line: string) => {
      steps.push(`${since()}: ${line}`);
      console.log(`${since()}: ${line}`);
    };

    // The celebrity's followers, straight to the store as the fan-out writes them (each wave after the one before).
    const waves: Mutation[][] = [];
    for (let i = 0; i < FOLLOWERS; i++) {
      const follower = `f${i}`;
      const event = { mutation_id: `load-${i}`, op: EdgeOp.ADD_EDGE, edge_type: 'follows', src: follower, dst: CELEB, event_time: model.recordFollow(CELEB, follower), properties: {}, property_keys: [] };
      fanOutWaves(event, undefined).forEach((wave, w) => (waves[w] ??= []).push(...wave));
    }
    for (const wave of waves) {
      const slices = Array.from({ length: Math.ceil(wave.length / 500) }, (_, i) => wave.slice(i * 500, (i + 1) * 500));
      await mapBoundedOrThrow(slices, 4, (slice) => env.store.mutateMany(slice));
    }
    step(`${FOLLOWERS} followers written straight to the store`);

    const processes = ['a', 'b', 'c'].map((name) => run.start(STAGES, name));
    const killed = new Set<number>();
    const alive = () => processes.filter((p) => p.alive() && !stopped.has(p.pid));
    const assertAlive = () => {
      for (const p of processes) if (!p.alive() && !killed.has(p.pid)) throw new Error(`processor ${p.pid} died on its own:\n${p.tail()}`);
    };

    // Churn through the pipeline during the whole chain: new followers and unfollows of loaded ones.
    let churning = true;
    let churned = 0;
    const churn = (async () => {
      for (let k = 0; churning; k++) {
        if (k % 3 === 2) await model.unfollow(CELEB, `f${(k * 7_919) % FOLLOWERS}`);
        else await model.follow(CELEB, `g${k}`);
        churned++;
        if (k % 10 === 9) {
          await run.producer.flush();
          await sleep(250);
        }
      }
      await run.producer.flush();
    })();
    churn.catch(() => {}); // awaited below

    // Every status seen, per namespace: one that goes back (a zombie's write winning) fails the test.
    const regressions: string[] = [];
    const last = new Map<string, WideRowRecord>();
    const watch = async () => {
      for (const ns of NAMESPACES) {
        const r = await repository.get(ns, CELEB);
        if (r === undefined) continue;
        if (r.status === 'FAILED') regressions.push(`${ns} FAILED at ${since()}: ${r.failure}`);
        const before = last.get(ns);
        if (before && (r.generation !== before.generation || STATUS_ORDER.indexOf(r.status) < STATUS_ORDER.indexOf(before.status))) {
          regressions.push(`${ns}: ${before.status} (generation ${before.generation}) → ${r.status} (generation ${r.generation}) at ${since()}`);
        }
        last.set(ns, r);
      }
    };
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        await watch().catch((e: unknown) => regressions.push(`reading wide_rows: ${String(e)}`));
        await sleep(200);
      }
    })();

    // What `edgestream split <namespace> <id>` does, in this process (the CLI's own start-up is tested in wideSplit.test.ts).
    const requestSplit = async (ns: string) => {
      await splitCommand({ repository, publisher, config: env.config }, ns, CELEB, { force: false });
      step(`split of ${ns} requested`);
    };


    /** Whether `ns` is SPLITTING with a copy checkpoint; throws if it is already copied (the test came too late). */
    const midCopy = async (ns: string): Promise<boolean> => {
      assertAlive();
      const r = await repository.get(ns, CELEB);
      if (r?.status === 'SPLIT' || r?.status === 'COMPLETED') throw new Error(`${ns}[${CELEB}] was copied before the test could interrupt the copy: raise FOLLOWERS`);
      return r?.status === 'SPLITTING' && (await repository.getCheckpoint('split', { namespace: ns, partitionId: CELEB, generation: r.generation })) !== undefined;
    };
    /** The live process copying `ns`: the last to log starting or resuming that copy. */
    const copierOf = (ns: string): ProcessorProcess => {
      const copier = alive()
        .map((p) => ({ p, at: lastCopyStart(p, ns) }))
        .filter((c) => c.at > 0)
        .sort((x, y) => y.at - x.at)[0]?.p;
      if (copier === undefined) throw new Error(`${ns} is mid-copy but no live process logged its copy:\n${alive().map((p) => p.tail(10)).join('\n')}`);
      return copier;
    };
    const copiedRows = async (ns: string) => (await repository.getCheckpoint<{ copiedRows: number }>('split', { namespace: ns, partitionId: CELEB, generation: 1 }))?.copiedRows;
    const tails = () => alive().map((p) => p.tail(10)).join('\n');
    const resumedBy = async (ns: string, others: readonly ProcessorProcess[]) => {
      let by: ProcessorProcess | undefined;
      await waitFor(
        `another instance to resume the copy of ${ns}`,
        async () => {
          assertAlive();
          by = others.find((p) => logLines(p).some((l) => l.msg === 'splitter: resuming the copy from its checkpoint' && l.namespace === ns));
          return by !== undefined;
        },
        180_000,
        tails,
      );
      return by!;
    };

    // One namespace after the other (their tasks may sit on different partitions and run at once): the first's copier SIGKILLed mid-copy.
    const [first, second] = NAMESPACES;
    await requestSplit(first);
    await waitFor(`a copy checkpoint of ${first} with its split SPLITTING`, () => midCopy(first), 240_000, tails);
    const victim = copierOf(first);
    killed.add(victim.pid);
    expect((await victim.kill('SIGKILL')).signal).toBe('SIGKILL');
    const atKill = await repository.get(first, CELEB);
    step(`SIGKILL the copier of ${first} (pid ${victim.pid}) at ${await copiedRows(first)} rows copied, status ${atKill?.status}`);
    expect(atKill?.status).toBe('SPLITTING');
    step(`pid ${(await resumedBy(first, alive())).pid} resumed the copy of ${first}`);

    // The second: SIGSTOP its copier mid-copy, past its session, until both splits completed without it; then SIGCONT.
    await requestSplit(second);
    await waitFor(`a copy checkpoint of ${second} with its split SPLITTING`, () => midCopy(second), 240_000, tails);
    const sleeper = copierOf(second);
    signal(sleeper.pid, 'SIGSTOP');
    stopped.add(sleeper.pid);
    const stoppedAt = Date.now();
    step(`SIGSTOP the copier of ${second} (pid ${sleeper.pid}) at ${await copiedRows(second)} rows copied, status ${(await repository.get(second, CELEB))?.status}`);
    step(`pid ${(await resumedBy(second, alive())).pid} resumed the copy of ${second}`);

    await waitFor(
      'both splits to complete',
      async () => {
        assertAlive();
        const records = await Promise.all(NAMESPACES.map((ns) => repository.get(ns, CELEB)));
        if (records.some((r) => r?.status === 'FAILED')) throw new Error(`a split FAILED: ${JSON.stringify(records)}`);
        return records.every((r) => r?.status === 'COMPLETED');
      },
      300_000,
      () => alive().map((p) => p.tail(10)).join('\n'),
    );
    step('both splits COMPLETED');
    await sleep(stoppedAt + PAST_SESSION_MS - Date.now());
    signal(sleeper.pid, 'SIGCONT');
    stopped.delete(sleeper.pid);
    step(`SIGCONT pid ${sleeper.pid} after ${Date.now() - stoppedAt} ms: it wakes mid-copy of a split that completed without it`);
    // Let it carry on with the copy it no longer owns (a SPLIT record and a verify task, at stale versions).
    await sleep(5_000);
    assertAlive();
    const contAt = Date.now() - 5_000;
    const afterWaking = logLines(sleeper).filter((l) => (l.time ?? 0) >= contAt && l.namespace === second).map((l) => l.msg);
    step(`what pid ${sleeper.pid} did with ${second} after waking: ${JSON.stringify(afterWaking)}`);

    churning = false;
    await churn;
    expect(churned).toBeGreaterThan(100);
    const fanOutGroups = edgePipelineGroups(env.config).filter((g) => g.stage === 'fanout' || g.stage === 'repair');
    await waitFor('the fan-out to drain the churn', async () => (await groupsLag(env.admin, fanOutGroups)).every((l) => l.lag === 0), 180_000);
    await sleep(3 * env.config.wide.directoryRefreshMs);
    watching = false;
    await watcher;
    await watch();
    expect(regressions).toEqual([]);

    for (const ns of NAMESPACES) {
      const r = (await repository.get(ns, CELEB)) as WideRowRecord;
      step(`${ns}[${CELEB}]: ${r.rows} rows, ${r.buckets} ${r.strategy} buckets, plan→copied ${((r.copiedAt! - r.plannedAt!) / 1e6).toFixed(1)} s, copied→verified ${((r.verifiedAt! - r.copiedAt!) / 1e6).toFixed(1)} s; verification ${JSON.stringify(r.verification)}`);
      expect(r).toMatchObject({ status: 'COMPLETED', generation: 1 });
      expect(r.buckets).toBeGreaterThan(1);
      expect(r.verification).toMatchObject({ mismatchedKeys: 0 });
      expect(r.verification!.splitChecksum).toBe(r.verification!.originalChecksum);
      const layout = layoutOf(r);
      for (let b = 0; b < bucketCount(layout); b++) {
        const page = await env.store.namespace(r.splitNamespace).slice(splitBucketId(CELEB, 1, b), { limit: 1 });
        expect(page.cells.length, `bucket ${b} of ${ns}`).toBe(1);
      }
    }

    // Reads through the splits, reads of the originals and the model agree, page by page by cursor.
    for (const order of ['newest', 'peer'] as const) {
      const want = model.expected(CELEB, order);
      expect(await model.scan(reader, CELEB, order, 997)).toEqual(want);
      expect(await model.scan(originalReader, CELEB, order, 997)).toEqual(want);
    }
    expect(serving.directory.stats.hits).toBeGreaterThan(0);
    expect(await env.dlqCount()).toBe(0);
    console.log(`split chain on the cluster: ${FOLLOWERS} followers, ${churned} churn events\n${steps.join('\n')}`);

    for (const p of alive()) expect(await p.kill('SIGTERM'), p.tail()).toEqual({ code: 0, signal: null });
  });
});

interface LogLine {
  readonly time?: number;
  readonly msg?: string;
  readonly namespace?: string;
}

function logLines(p: ProcessorProcess): LogLine[] {
  let text: string;
  try {
    text = fs.readFileSync(p.logPath, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line) as LogLine];
    } catch {
      return [];
    }
  });
}

/** The time (ms) of `p`'s last log line starting or resuming a copy of `ns`; 0 if none. */
function lastCopyStart(p: ProcessorProcess, ns: string): number {
  let at = 0;
  for (const l of logLines(p)) if (l.namespace === ns && (l.msg === 'splitter: copying' || l.msg === 'splitter: resuming the copy from its checkpoint')) at = Math.max(at, l.time ?? 0);
  return at;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}
