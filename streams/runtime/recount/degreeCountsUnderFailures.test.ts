import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFanOutProcessor, degreeRecountLogic } from '../../../processors/index.ts';
import type { EdgeMutation } from '../../../schemas/generated/EdgeMutation.ts';
import { createMemoryStore } from '../../../sinks/memory/index.ts';
import {
  decodeDegreeCount,
  decodeLinkValue,
  DEGREE_DIRTY_NAMESPACE,
  degreeDirtyShards,
  edgestreamNamespaces,
  encodeDegreesKey,
  LinkState,
  linkNamespace,
} from '../../../sinks/namespaces/index.ts';
import { decorateStore, type Mutation, type TwoLevelMapStore } from '../../../sinks/store/index.ts';
import { createRecounter, type Recounter } from './createRecounter.ts';
import { defaultMutationIdOf } from '../stages/logFields.ts';
import type { PipelineDeps, RecordOutcome } from '../stages/pipelineTypes.ts';
import { runPipeline } from '../stages/runPipeline.ts';
import { createRuntimeMetrics } from '../runtimeMetrics.ts';
import { faultyStore } from '../testing/faultyStore.ts';
import { fakePublisher, message } from '../testing/fakeKafka.ts';
import { silentLogger } from '../testing/silentLogger.ts';
import { createTestClock, type TestClock } from '../testing/testClock.ts';

/**
 * Degree counts when a link op fails halfway (docs/architecture.md §5
 * "Counts", §9 "Counts that drift"): link ops run through the real runtime
 * (`runPipeline`: waves, retries, follow-ups) and the fan-out over an
 * in-memory store whose writes fail as a plan says, per attempt: a link or
 * index namespace, or the follow-ups (the marks written after the links
 * landed). A failed event is re-run as a repair up to MAX_ATTEMPTS, then
 * dead-lettered; a link cell it landed stays. The delta recounter runs between
 * attempts and in the middle of them (between two write waves). Once the
 * stream is quiet, every degree must equal the ACTIVE cells of its link partition.
 */
const TYPE = 'follows';
const VERTICES = ['a', 'b', 'c'] as const;
const MAX_ATTEMPTS = 3;
const HOLD_MS = 1_000;
const config = { edgeTypes: [{ name: TYPE }] };
/** `followUps`: the degree_dirty writes that carry marks (not the intents of the first wave). */
const FAULTS = ['follows_out', 'follows_in', 'follows_out_recent', 'follows_in_recent', 'followUps'] as const;
/** `intents`: the first wave's degree_dirty write (left out of the property: failing it on every attempt is the documented DLQ limit). */
type Fault = (typeof FAULTS)[number] | 'intents';

interface Step {
  readonly op: EdgeMutation['op'];
  readonly src: string;
  readonly dst: string;
  readonly eventTime: bigint;
  /** Per attempt (0 = the input's), what fails. */
  readonly faults: readonly (readonly Fault[])[];
  /** Before which store write call of the attempt (counted from 0) the recounter runs a round, if any. */
  readonly recountBeforeCall: number | undefined;
  /**
   * Per later attempt (1 = the first re-run): true = the input's consumer runs it again as its src's sole writer
   * (its process died before committing), false = the repair runner does (not a sole writer). Absent: repairs.
   */
  readonly reruns?: readonly boolean[];
}

const isFollowUp = (m: Mutation) => m.namespace === DEGREE_DIRTY_NAMESPACE && m.deletions.length + m.additions.length > 0 && !m.additions.some((a) => degreeRecountLogic.isIntent?.(a.key) === true);
const isIntentWrite = (m: Mutation) => m.namespace === DEGREE_DIRTY_NAMESPACE && m.additions.some((a) => degreeRecountLogic.isIntent?.(a.key) === true);

/** `sweepMinMarks` 1: every round takes all the marks of each target it found (sweepLargeTargets). */
function harness(directCountMaxCells: number, sweepMinMarks = 1_000) {
  const memory = createMemoryStore({ namespaces: edgestreamNamespaces(config) });
  const faulty = faultyStore(memory);
  let failing = new Set<Fault>();
  faulty.failWrites((m) => (failing.has(m.namespace as Fault) || (failing.has('followUps') && isFollowUp(m)) || (failing.has('intents') && isIntentWrite(m)) ? 'timeout' : undefined));
  const recountClock: TestClock = createTestClock();
  const recounter: Recounter = createRecounter({ store: memory, logic: degreeRecountLogic, logger: silentLogger, clock: recountClock, mode: 'delta', intentHoldMs: HOLD_MS, directCountMaxCells, sweepMinMarks });
  /** A recount round as the recounter's time goes on (never a whole hold within one attempt: its writes land within the hold). */
  const recount = async () => {
    await recounter.runOnce();
    await recountClock.advance(HOLD_MS / 10);
  };
  let beforeCall: number | undefined;
  let calls = 0;
  const store: TwoLevelMapStore = decorateStore(faulty.store, {
    async mutateMany(ms) {
      if (calls++ === beforeCall) await recount();
      return faulty.store.mutateMany(ms);
    },
  });
  const pipelineClock = createTestClock();
  const deps: PipelineDeps<EdgeMutation> = {
    processor: createFanOutProcessor(config),
    decode: async (value) => JSON.parse(value.toString(), (k, v: unknown) => (k === 'event_time' ? BigInt(v as string) : v)) as EdgeMutation,
    validate: (event) => ({ ok: true, event }),
    store,
    encodeEmit: async () => {
      throw new Error('the fan-out emits nothing');
    },
    publisher: fakePublisher().publisher,
    clock: pipelineClock,
    logger: silentLogger,
    retry: { budgetMs: 300, initialBackoffMs: 100, maxBackoffMs: 100 },
    readConcurrency: 2,
    metrics: createRuntimeMetrics(),
    mutationIdOf: defaultMutationIdOf,
    // One input partition: every attempt is its src's sole writer unless it is a repair (a repair is in flight then).
    partitionOfKey: async () => 0,
    repairsPending: async () => repairing,
  };
  let repairing = false;
  const attempt = async (event: EdgeMutation, faults: readonly Fault[], recountBeforeCall: number | undefined, asRepair: boolean): Promise<RecordOutcome['kind']> => {
    await pipelineClock.advance(1_000); // a repair's back-off: each attempt stamps its intents anew
    repairing = asRepair;
    failing = new Set(faults);
    [calls, beforeCall] = [0, recountBeforeCall];
    const value = Buffer.from(JSON.stringify(event, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v)));
    const [outcome] = (await runPipeline(deps, { topic: 'in', partition: 0 }, [message(0, value, { key: event.src })], async () => {})) as [RecordOutcome];
    failing = new Set();
    beforeCall = undefined;
    return outcome.kind;
  };
  /** The stream is quiet: rounds until every mark is gone, past every hold. */
  const settle = async () => {
    for (let i = 0; i < 4; i++) {
      await recounter.runOnce();
      await recountClock.advance(HOLD_MS);
    }
    await recounter.runOnce();
  };
  const degree = async (vertex: string, direction: 'out' | 'in') => {
    const cell = await memory.namespace('degrees').get(vertex, encodeDegreesKey(TYPE, direction));
    return cell === undefined ? undefined : decodeDegreeCount(cell.value);
  };
  const activeLinks = async (vertex: string, direction: 'out' | 'in') => {
    const cells = (await memory.namespace(linkNamespace(TYPE, direction)).slice(vertex, { limit: 1_000 })).cells;
    return { cells: cells.length, active: BigInt(cells.filter((c) => decodeLinkValue(c.value).state === LinkState.ACTIVE).length) };
  };
  const marksLeft = async () => {
    let n = 0;
    for (const shard of degreeDirtyShards()) n += (await memory.namespace(DEGREE_DIRTY_NAMESPACE).slice(shard, { limit: 1_000 })).cells.length;
    return n;
  };
  return { attempt, recount, settle, degree, activeLinks, marksLeft, recounter };
}

const mutation = (i: number, s: Pick<Step, 'op' | 'src' | 'dst' | 'eventTime'>): EdgeMutation => ({
  mutation_id: `m${i}`,
  op: s.op,
  edge_type: TYPE,
  src: s.src,
  dst: s.dst,
  event_time: s.eventTime,
  properties: {},
  property_keys: [],
});

/** Runs the steps (each event until done or dead-lettered, a recount round after each attempt), then settles. */
async function run(h: ReturnType<typeof harness>, steps: readonly Step[]): Promise<number> {
  let deadLettered = 0;
  for (const [i, step] of steps.entries()) {
    for (let n = 0; n <= MAX_ATTEMPTS; n++) {
      const kind = await h.attempt(mutation(i, step), step.faults[n] ?? [], step.recountBeforeCall, n > 0 && step.reruns?.[n - 1] !== true);
      await h.recount();
      if (kind === 'done') break;
      if (n === MAX_ATTEMPTS) deadLettered++;
    }
  }
  await h.settle();
  return deadLettered;
}

async function expectExactDegrees(h: ReturnType<typeof harness>) {
  for (const vertex of VERTICES) {
    for (const direction of ['out', 'in'] as const) {
      const truth = await h.activeLinks(vertex, direction);
      // No count cell reads as 0 (a sole writer does not mark a side whose counted links it cannot change).
      expect((await h.degree(vertex, direction)) ?? 0n, `${direction}-degree of ${vertex}`).toBe(truth.active);
    }
  }
  expect(await h.marksLeft()).toBe(0);
}

describe('degree counts when a link op fails halfway', () => {
  it.each([
    ['a small vertex (counted from its links)', 128],
    ['a mirrored vertex (delta mode)', 0],
  ])('a link cell that landed for an event that was then dead-lettered is counted: %s', async (_, directCountMaxCells) => {
    const h = harness(directCountMaxCells);
    const always = (fault: Fault) => Array.from({ length: MAX_ATTEMPTS + 1 }, () => [fault]);
    // c→b lands and is counted (b mirrored when directCountMaxCells is 0); then a→b lands follows_in[b] but never follows_out[a], and is dead-lettered.
    const deadLettered = await run(h, [
      { op: 'ADD_EDGE', src: 'c', dst: 'b', eventTime: 1n, faults: [], recountBeforeCall: undefined },
      { op: 'ADD_EDGE', src: 'a', dst: 'b', eventTime: 2n, faults: always('follows_out'), recountBeforeCall: undefined },
    ]);
    expect(deadLettered).toBe(1);
    expect(await h.activeLinks('b', 'in')).toEqual({ cells: 2, active: 2n });
    expect(await h.degree('b', 'in')).toBe(2n);
    await expectExactDegrees(h);
  });

  it('a link op whose follow-up marks never land (dead-lettered after its links did) is counted', async () => {
    const h = harness(0);
    await run(h, [
      { op: 'ADD_EDGE', src: 'c', dst: 'b', eventTime: 1n, faults: [], recountBeforeCall: undefined },
      { op: 'REMOVE_EDGE', src: 'c', dst: 'b', eventTime: 2n, faults: Array.from({ length: MAX_ATTEMPTS + 1 }, () => ['followUps' as const]), recountBeforeCall: undefined },
    ]);
    expect(await h.degree('b', 'in')).toBe(0n);
    expect(await h.degree('c', 'out')).toBe(0n);
    expect(h.recounter.stats().strandedIntents).toBeGreaterThan(0);
  });

  it('a round that reads an intent before its attempt\'s links landed holds it: an unfollow whose links land in its last attempt, which then fails, is counted', async () => {
    const h = harness(0);
    const links: Fault[] = ['follows_out', 'follows_in'];
    // The REMOVE supersedes c→b's entry: its first wave deletes the entry (with the intents), its links follow in the second.
    // Every attempt but the last fails its links; the last lands them and fails its follow-ups; a round runs between its two waves.
    await run(h, [
      { op: 'ADD_EDGE', src: 'c', dst: 'b', eventTime: 1n, faults: [], recountBeforeCall: undefined },
      { op: 'REMOVE_EDGE', src: 'c', dst: 'b', eventTime: 2n, faults: [links, links, links, ['followUps']], recountBeforeCall: 1 },
    ]);
    expect(await h.activeLinks('b', 'in')).toEqual({ cells: 1, active: 0n });
    expect(await h.degree('b', 'in')).toBe(0n);
    await expectExactDegrees(h);
  });

  it('a re-run by the sole writer that finds the link its crashed attempt landed (with no intent or mark) marks both sides', async () => {
    const h = harness(128);
    // Attempt 0 lands both links and nothing of degree_dirty, then its process dies; the input's consumer runs it again.
    await run(h, [{ op: 'ADD_EDGE', src: 'a', dst: 'b', eventTime: 1n, faults: [['intents', 'followUps', 'follows_out_recent']], recountBeforeCall: undefined, reruns: [true] }]);
    expect(await h.degree('a', 'out')).toBe(1n);
    expect(await h.degree('b', 'in')).toBe(1n);
    await expectExactDegrees(h);
  });

  it('a sole writer\'s re-add of an ACTIVE link marks only its in side, and every count stays exact', async () => {
    const h = harness(128);
    await run(h, [
      { op: 'ADD_EDGE', src: 'a', dst: 'b', eventTime: 1n, faults: [], recountBeforeCall: undefined },
      { op: 'ADD_EDGE', src: 'a', dst: 'b', eventTime: 2n, faults: [], recountBeforeCall: undefined },
    ]);
    expect(h.recounter.stats().recounted).toBe(3); // a→out and b→in after the add, b→in alone after the re-add
    expect(await h.degree('a', 'out')).toBe(1n);
    expect(await h.degree('b', 'in')).toBe(1n);
    await expectExactDegrees(h);
  });

  it('every degree equals its ACTIVE links once quiet, whatever fails, is repaired or dead-lettered, and wherever a round runs (property)', { timeout: 120_000 }, async () => {
    const step: fc.Arbitrary<Step> = fc.record({
      op: fc.constantFrom<EdgeMutation['op']>('ADD_EDGE', 'ADD_EDGE', 'REMOVE_EDGE', 'HIDE_EDGE', 'UNHIDE_EDGE'),
      src: fc.constantFrom(...VERTICES),
      dst: fc.constantFrom(...VERTICES),
      eventTime: fc.bigInt({ min: 1n, max: 8n }),
      faults: fc.array(fc.oneof({ weight: 2, arbitrary: fc.constant<Fault[]>([]) }, { weight: 3, arbitrary: fc.subarray([...FAULTS], { minLength: 1 }) }), {
        minLength: MAX_ATTEMPTS + 1,
        maxLength: MAX_ATTEMPTS + 1,
      }),
      recountBeforeCall: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
      reruns: fc.array(fc.boolean(), { minLength: MAX_ATTEMPTS, maxLength: MAX_ATTEMPTS }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), fc.constantFrom(0, 2, 128), fc.constantFrom(1, 1_000), async (steps, directCountMaxCells, sweepMinMarks) => {
        const h = harness(directCountMaxCells, sweepMinMarks);
        await run(h, steps);
        await expectExactDegrees(h);
      }),
      { numRuns: 100 },
    );
  });
});
