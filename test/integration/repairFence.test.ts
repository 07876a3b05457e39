import type { KafkaProducer } from '../../streams/kafka/index.ts';
import { connectClients } from '../../cli/connectClients.ts';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { knownSchemas, type EdgeMutation } from '../../schemas/index.ts';
import { encodeRecentKey, forwardLinkNamespace, forwardRecentNamespace, isExactRecentValue } from '../../sinks/namespaces/index.ts';
import { createEdgeProducer, type EdgeProducer } from '../../streams/producer/index.ts';
import { createKeyPartitioner } from '../../streams/runtime/consumer/keyPartitioner.ts';
import { faultyStore } from '../../streams/runtime/testing/faultyStore.ts';
import { subjectFor } from '../../streams/serde/index.ts';
import { createEdgePipeline, type EdgePipeline, type EdgePipelineStage } from '../../streams/topology/createEdgePipeline.ts';
import type { TwoLevelMapStore } from '../../sinks/store/index.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from '../support/edgestreamEnv.ts';
import { caughtUp, endOffsets, readTopic, waitFor } from './runtimeFixture.ts';

/**
 * The repair fence (docs/architecture.md §5 "The exact index", Repairs) on the
 * real stack: the fan-out writes exact index entries for a partition only while
 * its repair partition holds nothing uncommitted, and every repair record lands
 * on the repair partition of its src's input partition.
 */
describe('the repair fence across rebalances and link ops keyed otherwise', () => {
  let env: EdgestreamEnv;
  let producer: EdgeProducer;
  let raw: KafkaProducer;
  const pipelines: EdgePipeline[] = [];

  /** A pipeline of `stages` on its own Kafka client (its own client id, so the group's members can be told apart). */
  const startPipeline = async (clientId: string, stages: EdgePipelineStage[], store: TwoLevelMapStore = env.store) => {
    const { kafka } = await connectClients(env.endpoints, clientId, env.logger);
    const pipeline = createEdgePipeline({ kafka, serde: env.serde, store, config: env.config, logger: env.logger, stages, tuning: { progressIntervalMs: 600_000 } });
    pipelines.push(pipeline);
    onTestFinished(() => pipeline.stop().catch(() => {})); // the next test starts from an empty group, even after a failure
    await pipeline.start();
    return pipeline;
  };
  const fanOutGroup = () => `${env.config.topics.prefix}fan-out`;

  /** The input partitions each member of the fan-out group holds, by client id; undefined while the group is not stable. */
  const assignment = async (): Promise<Map<string, number[]> | undefined> => {
    const group = await env.admin.describeGroup(fanOutGroup());
    if (group.state !== 'Stable') return undefined;
    return new Map(group.members.map((m) => [m.clientId, [...(m.assignment[env.topics.input] ?? [])]]));
  };
  const holds = async (clientId: string, want: (partitions: number[], members: number) => boolean) => {
    const a = await assignment();
    const mine = a?.get(clientId);
    return a !== undefined && mine !== undefined && want(mine, a.size);
  };
  const entryOf = async (src: string, dst: string, time: bigint) => env.store.namespace(forwardRecentNamespace('follows')).get(src, encodeRecentKey(time, dst));

  beforeAll(async () => {
    env = await createEdgestreamEnv({ name: 'repairfence', edgeTypes: ['follows'], partitions: 3, runtime: { writeRetryBudgetMs: 300 } });
    producer = createEdgeProducer({ kafka: env.kafka, serde: env.serde, config: env.config });
    raw = env.kafka.producer();
    await raw.connect();
  }, 120_000);

  afterAll(async () => {
    for (const p of pipelines) await p.stop().catch(() => {});
    await producer?.close().catch(() => {});
    await raw?.disconnect().catch(() => {});
    await env?.teardown();
  });

  it('a partition that moves X → Y (Y hands an op off to repair) → X: back on X its entries are unverified until the repair is committed', { timeout: 180_000 }, async () => {
    const t0 = BigInt(Date.now() - 60_000) * 1000n;
    const add = (src: string, dst: string, eventTime: bigint) => producer.addEdge({ type: 'follows', src, dst, eventTime });
    const fanOutCaughtUp = () => caughtUp(env.admin, fanOutGroup(), env.topics.input);

    // X alone: one op per src, on every partition; each is applied as sole writer (exact), so X knows every repair partition clear.
    await startPipeline('it-fence-x', ['fanout']);
    const srcs = Array.from({ length: 12 }, (_, i) => `mv${i}`);
    const sent = await Promise.all([...srcs.map((src) => add(src, 'd1', t0)), producer.flush()]);
    const partitionOf = new Map(srcs.map((src, i) => [src, (sent[i] as { partition: number }).partition]));
    expect(new Set(partitionOf.values()).size).toBe(3);
    await waitFor('X to apply the first ops', fanOutCaughtUp);
    for (const src of srcs) expect(isExactRecentValue((await entryOf(src, 'd1', t0))?.value ?? new Uint8Array()), src).toBe(true);

    // Y joins the group with a store whose writes all fail: what it applies goes to the repair topic.
    const failing = faultyStore(env.store);
    failing.failWrites(() => 'timeout');
    const y = await startPipeline('it-fence-y', ['fanout'], failing.store);
    await waitFor('Y to hold a partition', () => holds('it-fence-y', (mine, members) => members === 2 && mine.length > 0));
    const moved = (await assignment())?.get('it-fence-y')?.[0] as number;
    const src = srcs.find((s) => partitionOf.get(s) === moved) as string;
    await add(src, 'd2', t0 + 1_000n);
    await producer.flush();
    await waitFor('Y to hand the op off to repair and commit it', async () => (await endOffsets(env.admin, env.topics.repair)).get(moved) === 1n && (await fanOutCaughtUp()));
    expect(y.runners[0]?.metrics().sentToRepair).toBe(1);

    // Y leaves; the partition comes back to X, whose repair partition now holds Y's uncommitted hand-off.
    await y.stop();
    await waitFor('X to hold every partition again', () => holds('it-fence-x', (mine, members) => members === 1 && mine.length === 3));
    await add(src, 'd3', t0 + 2_000n);
    await producer.flush();
    await waitFor('X to apply the op after the move back', fanOutCaughtUp);
    const afterMove = await entryOf(src, 'd3', t0 + 2_000n);
    expect(afterMove, 'the entry was written').toBeDefined();
    expect(isExactRecentValue(afterMove?.value as Uint8Array), 'an entry written while a repair of its partition is uncommitted').toBe(false);

    // Once the repair runner has committed the hand-off, X is sole writer again (after its once-a-second recheck).
    await startPipeline('it-fence-repair', ['repair']);
    await waitFor('the repair to be committed', () => caughtUp(env.admin, `${fanOutGroup()}.repair`, env.topics.repair));
    expect(await env.store.namespace(forwardLinkNamespace('follows')).get(src, new TextEncoder().encode('d2'))).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await add(src, 'd4', t0 + 3_000n);
    await producer.flush();
    await waitFor('X to apply the op after the repair', fanOutCaughtUp);
    expect(isExactRecentValue((await entryOf(src, 'd4', t0 + 3_000n))?.value ?? new Uint8Array())).toBe(true);
  });

  it("a link op that came without a key and whose write fails lands its repair record on its src's repair partition, keyed by the src", { timeout: 120_000 }, async () => {
    const srcs = Array.from({ length: 6 }, (_, i) => `nullkey${i}`);
    const failing = faultyStore(env.store);
    failing.failWrites((m) => (m.namespace === forwardLinkNamespace('follows') && srcs.includes(m.id) ? 'timeout' : undefined));
    const x = await startPipeline('it-fence-nullkey', ['fanout'], failing.store);
    const before = await endOffsets(env.admin, env.topics.repair);

    // Each record sits in its src's partition (nothing to forward), under a null key: as a producer that picks partitions itself sends it.
    const home = createKeyPartitioner(env.kafka, env.topics.input);
    const subject = subjectFor(env.topics.input, knownSchemas.EdgeMutation);
    const eventTime = BigInt(Date.now() - 10_000) * 1000n;
    const events = srcs.map((src): EdgeMutation => ({ mutation_id: `${src}-add`, op: 'ADD_EDGE', edge_type: 'follows', src, dst: 'z', event_time: eventTime, properties: {}, property_keys: [] }));
    const messages = await Promise.all(events.map(async (e) => ({ key: null, value: await env.serde.encode(subject, e), partition: await home(e.src) })));
    await raw.send({ topic: env.topics.input, messages });
    await waitFor('every op handed to repair', () => (x.runners[0]?.metrics().sentToRepair ?? 0) >= srcs.length);

    const added = [...(await endOffsets(env.admin, env.topics.repair))].reduce((n, [p, high]) => n + Number(high - (before.get(p) ?? 0n)), 0);
    expect(added).toBe(srcs.length);
    const total = [...(await endOffsets(env.admin, env.topics.repair)).values()].reduce((n, high) => n + Number(high), 0);
    const records = await readTopic(env.kafka, env.topics.repair, total);
    for (const e of events) {
      const record = records.find((r) => r.value !== null && r.value.equals(messages[events.indexOf(e)]?.value as Buffer));
      expect(record, e.mutation_id).toBeDefined();
      expect([record?.key?.toString() ?? null, record?.partition], e.mutation_id).toEqual([e.src, await home(e.src)]);
    }
  });
});
