import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeLinkValue, encodeVertexKey, NODE_TOMBSTONES_NAMESPACE } from '../../sinks/namespaces/index.ts';
import { createEdgeProducer, type EdgeProducer } from '../../streams/producer/index.ts';
import { createEdgePipeline, type EdgePipeline, type EdgePipelineStage } from '../../streams/topology/createEdgePipeline.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from '../support/edgestreamEnv.ts';
import { readTopic, waitFor } from './runtimeFixture.ts';

// Issue 11 item 3 on the real stack: the cascade must not drop a REMOVE_NODE whose fan-out lags
// past the give-up time; it waits for the fan-out group to commit past the record. When the fan-out
// did pass it and the tombstone still does not show up, the removal is dead-lettered with a reason.

const GIVE_UP_MS = 3_000;

describe('REMOVE_NODE cascade while the fan-out lags (real Kafka and Cassandra)', () => {
  let env: EdgestreamEnv;
  let producer: EdgeProducer;
  const pipelines: EdgePipeline[] = [];

  const start = async (stages: EdgePipelineStage[]) => {
    const p = createEdgePipeline({ kafka: env.kafka, serde: env.serde, store: env.store, config: env.config, logger: env.logger, stages });
    pipelines.push(p);
    await p.start();
    return p;
  };
  const link = async (type: string, src: string, dst: string) => {
    const cell = await env.store.namespace(`${type}_out`).get(src, encodeVertexKey(dst));
    return cell === undefined ? undefined : decodeLinkValue(cell.value).state;
  };
  const tombstone = (v: string) => env.store.namespace(NODE_TOMBSTONES_NAMESPACE).get(v, new Uint8Array(0));
  const edgesOf = (v: string) => [
    ['follows', v, 'b'],
    ['follows', v, 'c'],
    ['follows', 'd', v],
    ['likes', v, 'e'],
  ] as const;
  const addEdges = async (v: string) => {
    await Promise.all([...edgesOf(v).map(([type, src, dst]) => producer.addEdge({ type, src, dst })), producer.addEdge({ type: 'follows', src: 'b', dst: 'c' }), producer.flush()]);
  };
  const allActive = async (v: string) => (await Promise.all(edgesOf(v).map(([t, s, d]) => link(t, s, d)))).every((s) => s === 'ACTIVE');
  const allRemoved = async (v: string) => (await Promise.all(edgesOf(v).map(([t, s, d]) => link(t, s, d)))).every((s) => s === 'REMOVED');

  beforeAll(async () => {
    env = await createEdgestreamEnv({ name: 'cascadelag', runtime: { cascadeGiveUpAfterMs: GIVE_UP_MS, sessionTimeoutMs: 6_000, repairMaxAttempts: 1 } });
    producer = createEdgeProducer({ kafka: env.kafka, serde: env.serde, config: env.config });
  });

  afterAll(async () => {
    await Promise.all(pipelines.map((p) => p.stop()));
    await producer?.close();
    await env?.teardown();
  });

  it('waits out a fan-out stopped past the give-up time (and the session timeout), then removes every edge of the node', async () => {
    const cascade = await start(['cascade']);
    const fanOut = await start(['fanout']);
    await addEdges('n');
    await waitFor('the fan-out to write the edges', () => allActive('n'));
    await fanOut.stop();

    await Promise.all([producer.removeNode({ vertex: 'n' }), producer.flush()]);
    // Longer than the give-up time and the consumer session: the cascade has to keep waiting.
    await sleep(GIVE_UP_MS + 6_000);
    expect(await tombstone('n')).toBeUndefined();
    expect(await allActive('n')).toBe(true);

    await start(['fanout']);
    await waitFor('the cascade to remove every edge of n', () => allRemoved('n'), { timeoutMs: 60_000 });
    expect(await link('follows', 'b', 'c')).toBe('ACTIVE');
    expect(await env.dlqCount()).toBe(0);
    expect(cascade.runners[0]!.metrics().emitted).toBe(8); // 4 links × (REMOVE_EDGE + bag clear)
  });

  it('dead-letters a REMOVE_NODE as cascade_failed, saying why, when the fan-out committed past it but its tombstone never shows up', async () => {
    // The fan-out group is stopped from the previous test; move it past everything, as if it had
    // handed the REMOVE_NODE on and its tombstone write was lost (repair exhausted, dead-lettered).
    await Promise.all(pipelines.map((p) => p.stop()));
    const fanOutGroup = pipelines.find((p) => p.groups.fanout !== undefined)!.groups.fanout!;
    await Promise.all([producer.removeNode({ vertex: 'lost' }), producer.flush()]);
    const ends = await env.admin.fetchTopicOffsets(env.topics.input);
    await env.admin.setGroupOffsets({ groupId: fanOutGroup, topic: env.topics.input, partitions: ends.map((p) => ({ partition: p.partition, offset: p.high })) });

    await start(['cascade']);
    const [dead] = await readTopic(env.kafka, env.topics.dlq, 1, { timeoutMs: 60_000 });
    expect(dead!.headers['edgestream-dlq-reason']).toBe('cascade_failed');
    expect(dead!.headers['edgestream-dlq-error']).toMatch(/node tombstone of 'lost'.*not visible.*committed past/);
    expect(await tombstone('lost')).toBeUndefined();
  });
});
