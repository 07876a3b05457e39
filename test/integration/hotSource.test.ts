import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { applyLww } from '../support/model/applyLww.ts';
import { modelGraphLines } from '../support/model/graphLines.ts';
import { readStoreGraph } from '../support/model/readStoreGraph.ts';
import { publishMutations } from '../support/publishMutations.ts';
import { waitForQuiescence } from '../support/waitForQuiescence.ts';
import { caughtUp, waitFor } from './runtimeFixture.ts';
import { createPipelineEnv, type PipelineEnv } from '../support/pipelineEnv.ts';

const EVENTS = 24_000;
const PEERS = 6_000;

/**
 * One hot source: every event is a link op of one src, so all ride one input
 * partition, and the fan-out overlaps that partition's chunks
 * (runChunksPipelined). Its peers repeat at short and long distances — the
 * same edge added, re-added at a newer edge time, hidden, removed, within one
 * chunk, in neighbouring chunks running at once, and far apart — so ops of
 * one edge must still apply in offset order for the exact index to hold.
 * After the drain the hot vertex's links, its newest-first list and its
 * count, and a sample of peers' reverse side, equal the LWW model.
 */
describe('a hot source', () => {
  let t: PipelineEnv;

  beforeAll(async () => {
    t = await createPipelineEnv({ name: 'hotsource', edgeTypes: ['follows'] });
  }, 120_000);

  afterAll(async () => {
    await t?.teardown();
  });

  it('drains with ops of one edge in order across overlapping chunks; links, index and count equal the model', { timeout: 400_000 }, async () => {
    const { env, pipeline, producer } = t;
    const tag = `h${Date.now().toString(36)}-`;
    const hot = `${tag}hot`;
    const base = BigInt(Date.now() - 600_000) * 1000n;
    const ops: EdgeMutation['op'][] = ['ADD_EDGE', 'ADD_EDGE', 'HIDE_EDGE', 'UNHIDE_EDGE', 'ADD_EDGE', 'REMOVE_EDGE', 'ADD_EDGE'];
    const events: EdgeMutation[] = Array.from({ length: EVENTS }, (_, i) => {
      // Peers repeat every 700 events (neighbouring chunks) and every PEERS events (far apart).
      const peer = i % 3 === 0 ? i % 700 : i % PEERS;
      const op = ops[(i * 7 + (i >> 5)) % ops.length] as EdgeMutation['op'];
      const time = base + BigInt(i) * 10n;
      return {
        mutation_id: `${tag}${i}`,
        op,
        edge_type: 'follows',
        src: hot,
        dst: `${tag}p${peer}`,
        event_time: time,
        ...(op === 'REMOVE_EDGE' ? {} : { edge_time: time - BigInt(i % 5) }),
        properties: {},
        property_keys: [],
      };
    });

    const started = Date.now();
    await publishMutations(producer, events);
    const published = Date.now();
    await waitFor('the fan-out to drain the hot partition', () => caughtUp(env.admin, `${env.config.topics.prefix}fan-out`, env.topics.input), { timeoutMs: 300_000, everyMs: 250 });
    const drained = Date.now();
    const settled = await waitForQuiescence({ admin: env.admin, config: env.config, store: env.store, recount: () => pipeline.recounter!.runOnce(), timeoutMs: 300_000 });
    console.log(`hot source: ${EVENTS} events of one src published in ${published - started} ms, drained ${drained - started} ms after the first send (${Math.round(EVENTS / ((drained - started) / 1000))} events/s), counted ${settled.waitedMs} ms later`);

    const model = modelGraphLines(applyLww(events));
    const ofHot = (line: string) => line.startsWith(`link-out follows ${hot}->`) || line.startsWith(`newest follows out ${hot}:`) || line.startsWith(`degree follows out ${hot} `);
    expect((await readStoreGraph(env.store, ['follows'], [hot])).filter(ofHot)).toEqual(model.filter(ofHot));

    const sample = Array.from({ length: 40 }, (_, k) => `${tag}p${(k * 149) % PEERS}`);
    const ofSample = (line: string) => sample.some((p) => line.startsWith(`link-in follows ${hot}->${p} `) || line.startsWith(`newest follows in ${p}:`));
    expect((await readStoreGraph(env.store, ['follows'], sample)).filter(ofSample)).toEqual(model.filter(ofSample));
    expect(await env.dlqCount()).toBe(0);
  });
});
