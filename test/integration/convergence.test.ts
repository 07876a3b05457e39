import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeMutationEventTime } from '../../cli/kafka/edgeMutationEventTime.ts';
import { replayCommand } from '../../cli/commands/replay.ts';
import { EdgeOp, knownSchemas } from '../../schemas/index.ts';
import { subjectFor } from '../../streams/serde/index.ts';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { createEdgeProducer, type EdgeProducer } from '../../streams/producer/index.ts';
import { createEdgePipeline, type EdgePipeline } from '../../streams/topology/createEdgePipeline.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from '../support/edgestreamEnv.ts';
import { applyLww } from '../support/model/applyLww.ts';
import { convergenceScenarioArbitrary, describeMutations, scopedVertices, scopeMutation } from '../support/model/convergenceScenario.ts';
import { MODEL_EDGE_TYPE_CONFIG, MODEL_EDGE_TYPES, MODEL_SYMMETRIC_TYPES } from '../support/model/edgeMutationArbitrary.ts';
import { modelGraphLines } from '../support/model/graphLines.ts';
import { readPartition, readStoreGraph } from '../support/model/readStoreGraph.ts';
import { isExactRecentValue, recentNamespace } from '../../sinks/namespaces/index.ts';
import { publishMutations } from '../support/publishMutations.ts';
import { waitForQuiescence } from '../support/waitForQuiescence.ts';

/**
 * The model-based convergence test, end to end: random mutation sequences
 * (duplicates, shuffled arrival and event times, removes and re-adds, property
 * upserts, deletes and bag clears, node removals) are published through the
 * EdgeProducer SDK to real Kafka, processed by the whole write path
 * (createEdgePipeline: fan-out, repair, REMOVE_NODE cascade, recounter) into
 * real Cassandra, and once the pipeline is quiet the store read back (links
 * both ways with state, time, mutation id and write time; newest-first lists
 * from the recent indexes validated against the links; property bags;
 * degrees; node tombstones) must equal the reference model applyLww. Then the
 * run's records are replayed into the topic (cli replay) and the state must
 * not change; at the end the whole topic is replayed once more.
 *
 * One pipeline serves every run; each run's vertex ids carry their own prefix
 * and its event times sit on the real clock, so runs never share a partition.
 */
describe('the write path on Kafka + Cassandra converges to the LWW model', () => {
  let env: EdgestreamEnv;
  let pipeline: EdgePipeline;
  let producer: EdgeProducer;
  const rand = randomBytes(3).toString('hex');
  const runs: { tag: string; events: readonly EdgeMutation[]; expected: string[] }[] = [];

  beforeAll(async () => {
    env = await createEdgestreamEnv({ name: 'convergence', edgeTypes: MODEL_EDGE_TYPE_CONFIG });
    pipeline = createEdgePipeline({ kafka: env.kafka, serde: env.serde, store: env.store, config: env.config, logger: env.logger, tuning: { progressIntervalMs: 600_000 } });
    await pipeline.start();
    producer = createEdgeProducer({ kafka: env.kafka, serde: env.serde, config: env.config });
  });

  afterAll(async () => {
    await producer?.close().catch(() => {});
    await pipeline?.stop().catch(() => {});
    await env?.teardown();
  });

  const quiesce = () =>
    waitForQuiescence({
      admin: env.admin,
      config: env.config,
      store: env.store,
      recount: async () => {
        if (!pipeline.recounter) throw new Error('the pipeline has no recounter');
        await pipeline.recounter.runOnce();
      },
      timeoutMs: 60_000,
    });

  /** The values of every `*_recent` entry of `vertices`, in every model edge type and direction. */
  const recentEntries = async (vertices: readonly string[]) => {
    const values: Uint8Array[] = [];
    for (const type of MODEL_EDGE_TYPES) {
      for (const direction of ['out', 'in'] as const) {
        for (const v of vertices) for (const cell of await readPartition(env.store.namespace(recentNamespace(type, direction)), v, 500)) values.push(cell.value);
      }
    }
    return values;
  };

  const storeLines = (tag: string, hotFollowers = 0) => readStoreGraph(env.store, MODEL_EDGE_TYPES, scopedVertices(tag, hotFollowers));

  /** Re-publishes every record of the input topic from `from` (per partition; default: the beginning) to its end. */
  const replay = async (from?: readonly { partition: number; high: string }[]) => {
    const fromOffset = from?.map((p) => `${p.partition}:${p.high}`).join(',');
    return replayCommand(env.kafka, env.config, { dlq: false, dryRun: false, ...(fromOffset ? { fromOffset } : {}) }, edgeMutationEventTime(env.serde));
  };

  it('random sequences published through the SDK end in the model state, and replaying them changes nothing', { timeout: 300_000 }, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(convergenceScenarioArbitrary({ minEvents: 30, maxEvents: 80, maxDuplicates: 15 }), async ({ events, arrivals }) => {
        const tag = `r${run++}${rand}-`;
        const base = BigInt(Date.now() - 60_000) * 1000n;
        const scoped = events.map((e) => scopeMutation(e, tag, base));
        const published = arrivals.map((e) => scopeMutation(e, tag, base));
        const expected = modelGraphLines(applyLww(scoped, MODEL_SYMMETRIC_TYPES));
        const report = `run ${tag}: ${published.length} records published in this order:\n${describeMutations(published)}`;

        const from = await env.admin.fetchTopicOffsets(env.topics.input);
        const t0 = Date.now();
        await publishMutations(producer, published);
        const settled = await quiesce();
        expect(await storeLines(tag), report).toEqual(expected);

        const replayed = await replay(from);
        expect(replayed).toBeGreaterThanOrEqual(published.length); // plus the cascades' own events
        await quiesce();
        expect(await storeLines(tag), `after replaying ${replayed} records; ${report}`).toEqual(expected);
        console.log(
          `convergence ${tag}: ${published.length} published (${events.length} distinct), ${expected.length} model lines, ` +
            `quiet after ${settled.waitedMs} ms, replayed ${replayed}, run took ${Date.now() - t0} ms`,
        );
        runs.push({ tag, events: scoped, expected });
      }),
      { numRuns: 8, endOnFailure: true },
    );
    expect(await env.dlqCount()).toBe(0);
  });

  it('a hot vertex with hundreds of followers, mixed into the same sequences, ends in the model state too (delta recounter)', { timeout: 300_000 }, async () => {
    const HOT = 300;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(convergenceScenarioArbitrary({ minEvents: 20, maxEvents: 40, maxDuplicates: 40, hotFollowers: HOT }), async ({ events, arrivals }) => {
        const tag = `hot${run++}${rand}-`;
        const base = BigInt(Date.now() - 60_000) * 1000n;
        const published = arrivals.map((e) => scopeMutation(e, tag, base));
        const expected = modelGraphLines(applyLww(events.map((e) => scopeMutation(e, tag, base)), MODEL_SYMMETRIC_TYPES));
        await publishMutations(producer, published);
        await quiesce();
        expect(await storeLines(tag, HOT), `run ${tag}: ${published.length} records:\n${describeMutations(published)}`).toEqual(expected);
        // The scenario counts the hot vertex, unless it also removes it (then none of its links may stay: compared above).
        const removesHot = events.some((e) => e.op === EdgeOp.REMOVE_NODE && e.src === 'a');
        if (!removesHot) expect(expected.some((l) => l.includes(`${tag}a`) && l.startsWith('degree'))).toBe(true);
      }),
      { numRuns: 2, endOnFailure: true },
    );
    expect(env.config.runtime.recountMode).toBe('delta');
  });

  it("records keyed otherwise than by src (here by mutation id, over every partition) are forwarded to their src's partition and end in the model state, exact entries included", { timeout: 180_000 }, async () => {
    const rawProducer = env.kafka.producer();
    await rawProducer.connect();
    try {
      await fc.assert(
        fc.asyncProperty(convergenceScenarioArbitrary({ minEvents: 30, maxEvents: 60, maxDuplicates: 10 }), async ({ events, arrivals }) => {
          const tag = `fw${runs.length}${rand}-`;
          const base = BigInt(Date.now() - 60_000) * 1000n;
          const scoped = events.map((e) => scopeMutation(e, tag, base));
          const published = arrivals.map((e) => scopeMutation(e, tag, base));
          const expected = modelGraphLines(applyLww(scoped, MODEL_SYMMETRIC_TYPES));
          const ends = async () => (await env.admin.fetchTopicOffsets(env.topics.input)).reduce((n, p) => n + Number(p.high), 0);
          const before = await ends();
          const subject = subjectFor(env.topics.input, knownSchemas.EdgeMutation);
          await rawProducer.send({ topic: env.topics.input, messages: await Promise.all(published.map(async (e) => ({ key: e.mutation_id, value: await env.serde.encode(subject, e) }))) });
          await quiesce();
          expect(await storeLines(tag), `run ${tag}: ${published.length} records:\n${describeMutations(published)}`).toEqual(expected);
          // The forwarded copies were appended to the input (the cascade's events are too), and every
          // link op was applied in its src's partition: every index entry of the run is exact.
          expect((await ends()) - before).toBeGreaterThan(published.length);
          const entries = await recentEntries(scopedVertices(tag, 0));
          // A scenario may end with no live edge (a late REMOVE_NODE of the vertex every edge touches): then no entry is due.
          if (expected.some((line) => line.startsWith('newest ') && !line.endsWith(': '))) expect(entries.length).toBeGreaterThan(0);
          expect(entries.filter((value) => !isExactRecentValue(value))).toEqual([]);
          runs.push({ tag, events: scoped, expected });
        }),
        { numRuns: 3, endOnFailure: true },
      );
    } finally {
      await rawProducer.disconnect();
    }
    expect(await env.dlqCount()).toBe(0);
  });

  it('a full replay of the input topic from the beginning leaves every run unchanged', { timeout: 120_000 }, async () => {
    expect(runs.length).toBeGreaterThan(0);
    const replayed = await replay();
    await quiesce();
    for (const { tag, expected } of runs) expect(await storeLines(tag), `run ${tag} after a full replay of ${replayed} records`).toEqual(expected);
    expect(await env.dlqCount()).toBe(0);
  });
});
