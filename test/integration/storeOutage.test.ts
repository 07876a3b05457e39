import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userId, syntheticGraph } from '../../cli/workload/syntheticGraph.ts';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { restartServer } from '../../stack/localStack.ts';
import { loadStackConfig } from '../../stack/stackConfig.ts';
import { createEdgeProducer, type EdgeProducer } from '../../streams/producer/index.ts';
import { createEdgePipeline, type EdgePipeline } from '../../streams/topology/createEdgePipeline.ts';
import { subjectFor } from '../../streams/serde/index.ts';
import { knownSchemas } from '../../schemas/index.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from '../support/edgestreamEnv.ts';
import { applyLww } from '../support/model/applyLww.ts';
import { modelGraphLines } from '../support/model/graphLines.ts';
import { readStoreGraph } from '../support/model/readStoreGraph.ts';
import { publishMutations } from '../support/publishMutations.ts';
import { waitForQuiescence } from '../support/waitForQuiescence.ts';

const USERS = 120;
const EVENTS = 6_000;
const OUTAGE_MS = 20_000;

/** The synthetic workload as EdgeMutations with explicit ids and times, so the model can be computed. */
function workload(tag: string, base: bigint): EdgeMutation[] {
  return [...syntheticGraph({ events: EVENTS, users: USERS, edgeType: 'follows', targets: 'zipf', removeRatio: 0.15, propertyRatio: 0.1, seed: 11 })].map((op, i) => ({
    mutation_id: `${tag}${i}`,
    op: op.op,
    edge_type: op.type,
    src: `${tag}${op.src}`,
    dst: `${tag}${op.dst}`,
    // A few events share a time with a neighbour: ties must be settled the same way too.
    event_time: base + BigInt(i - (i % 7 === 3 ? 1 : 0)),
    properties: op.op === 'REMOVE_EDGE' ? {} : (op.properties ?? {}),
    property_keys: [],
  }));
}

/**
 * Store outage: Cassandra itself is stopped (SIGTERM: it drains and exits) for at least
 * 20 s in the middle of an ingest and then restarted on the same data. Writes that fail
 * meanwhile go to the repair topic; once Cassandra is back the repair runner lands them.
 * After the stream is quiet the state must equal the LWW model, and the DLQ must hold
 * nothing but the two deliberately invalid events published alongside.
 */
describe('a Cassandra outage during ingest', () => {
  let env: EdgestreamEnv;
  let pipeline: EdgePipeline;
  let producer: EdgeProducer;

  beforeAll(async () => {
    if (process.env['KAFKA_BROKERS'] || process.env['EDGESTREAM_STACK'] === 'docker') {
      throw new Error('the store-outage test stops and restarts Cassandra, so it needs the local JVM stack: unset KAFKA_BROKERS/SCHEMA_REGISTRY_URL/CASSANDRA_CONTACT_POINTS and EDGESTREAM_STACK=docker');
    }
    env = await createEdgestreamEnv({
      name: 'outage',
      edgeTypes: ['follows'],
      // Short budgets so failures reach the repair topic quickly and repairs retry often.
      runtime: { writeRetryBudgetMs: 1_000, cascadeSettleMs: 6_500, tombstoneCacheTtlMs: 300, repairInitialBackoffMs: 500, repairMaxBackoffMs: 4_000, repairMaxAttempts: 40 },
    });
    pipeline = createEdgePipeline({ kafka: env.kafka, serde: env.serde, store: env.store, config: env.config, logger: env.logger, tuning: { progressIntervalMs: 600_000 } });
    await pipeline.start();
    producer = createEdgeProducer({ kafka: env.kafka, serde: env.serde, config: env.config });
  }, 120_000);

  afterAll(async () => {
    await producer?.close().catch(() => {});
    await pipeline?.stop().catch(() => {});
    await env?.teardown();
  });

  it('converges to the model through the repair topic; the DLQ holds only the bad inputs', { timeout: 420_000 }, async () => {
    const tag = `o${Date.now().toString(36)}-`;
    const events = workload(tag, BigInt(Date.now() - 3_600_000) * 1000n);
    const expected = modelGraphLines(applyLww(events));

    // Two schema-valid but invalid events, bypassing the SDK's validation: unknown edge type, empty src.
    const subject = subjectFor(env.topics.input, knownSchemas.EdgeMutation);
    const bad = [
      { ...events[0]!, mutation_id: `${tag}bad-type`, edge_type: 'no_such_type' },
      { ...events[1]!, mutation_id: `${tag}bad-src`, src: '' },
    ];
    const rawProducer = env.kafka.producer();
    await rawProducer.connect();

    // Publish in two halves; the outage starts once the first half is in.
    const half = Math.floor(events.length / 2);
    await publishMutations(producer, events.slice(0, half));
    let down = 0;
    const outage = restartServer(loadStackConfig(), 'cassandra', {
      downMs: OUTAGE_MS,
      log: (line) => console.log(`[outage] ${line}`),
      onDown: () => (down = Date.now()),
    });
    await new Promise((r) => setTimeout(r, 2_000));
    await publishMutations(producer, events.slice(half));
    await rawProducer.send({ topic: env.topics.input, messages: await Promise.all(bad.map(async (e) => ({ key: e.src, value: await env.serde.encode(subject, e) }))) });
    await rawProducer.disconnect();
    await outage;
    const outageMs = Date.now() - down;
    expect(outageMs).toBeGreaterThanOrEqual(OUTAGE_MS);

    const settled = await waitForQuiescence({
      admin: env.admin,
      config: env.config,
      store: env.store,
      recount: () => pipeline.recounter!.runOnce(),
      timeoutMs: 300_000,
    });
    const repaired = pipeline.runners.map((r) => r.metrics()).reduce((n, m) => n + m.sentToRepair, 0);
    console.log(`outage: Cassandra down ${outageMs} ms; ${repaired} events went through the repair topic; quiet ${settled.waitedMs} ms after it came back`);
    expect(repaired).toBeGreaterThan(0); // the outage really hit the write path

    const vertices = Array.from({ length: USERS }, (_, i) => `${tag}${userId(i)}`);
    expect(await readStoreGraph(env.store, ['follows'], vertices)).toEqual(expected);
    expect(await env.dlqCount()).toBe(bad.length);
  });
});
