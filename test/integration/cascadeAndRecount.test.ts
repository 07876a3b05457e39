import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFanOutProcessor, createNodeRemovalCascade, degreeRecountLogic } from '../../processors/index.ts';
import { knownSchemas } from '../../schemas/index.ts';
import {
  decodeDegreeCount,
  decodeLinkValue,
  edgePropsId,
  edgestreamNamespaces,
  encodeDegreesKey,
  encodeVertexKey,
  type LinkDirection,
} from '../../sinks/namespaces/index.ts';
import type { TwoLevelMapStore } from '../../sinks/store/index.ts';
import { createEdgeProducer, type EdgeProducer } from '../../streams/producer/index.ts';
import { createCascadeRunner, createProcessorRuntime, createRecounter, type Recounter, type Runner } from '../../streams/runtime/index.ts';
import { caughtUp, createRuntimeFixture, waitFor, type RuntimeFixture } from './runtimeFixture.ts';

// Real Kafka + registry + Cassandra, with the real fan-out processor and the real cascade and
// recount logic (processors/) driven by the runtime's processor runtime, cascade runner and recounter.

describe('cascade runner and recounter on real Kafka and Cassandra (fan-out processor)', () => {
  let f: RuntimeFixture;
  let store: TwoLevelMapStore;
  let producer: EdgeProducer;
  let fanOut: Runner;
  let cascade: Runner;
  let recounter: Recounter;

  const link = async (type: string, src: string, dst: string) => {
    const cell = await store.namespace(`${type}_out`).get(src, encodeVertexKey(dst));
    return cell === undefined ? undefined : decodeLinkValue(cell.value).state;
  };
  const degree = async (vertex: string, type: string, direction: LinkDirection) => {
    const cell = await store.namespace('degrees').get(vertex, encodeDegreesKey(type, direction));
    return cell === undefined ? undefined : decodeDegreeCount(cell.value);
  };
  const bag = async (type: string, a: string, b: string) => (await store.namespace(`${type}_props`).slice(edgePropsId(a, b), { limit: 100 })).cells.length;

  beforeAll(async () => {
    f = await createRuntimeFixture('cascade', { writeRetryBudgetMs: 500, cascadeSettleMs: 5_200, recountIntervalMs: 200 });
    store = await f.openStore({ namespaces: edgestreamNamespaces(f.config) });
    producer = createEdgeProducer({ kafka: f.kafka, serde: f.serde, config: f.config });
    const common = { kafka: f.kafka, serde: f.serde, store, config: f.config, logger: f.logger, schema: knownSchemas.EdgeMutation, validate: f.validate };
    fanOut = createProcessorRuntime({ ...common, processor: createFanOutProcessor(f.config) });
    cascade = createCascadeRunner({
      ...common,
      logic: createNodeRemovalCascade({
        edgeTypes: f.config.edgeTypes,
        maxMutationIdBytes: f.config.limits.maxMutationIdBytes,
        cascadeSettleMs: f.config.runtime.cascadeSettleMs,
      }),
      upstreamGroupId: fanOut.groupId,
    });
    recounter = createRecounter({ store, logic: degreeRecountLogic, logger: f.logger, intervalMs: f.config.runtime.recountIntervalMs });
    await Promise.all([fanOut.start(), cascade.start()]);
    recounter.start();
  });

  afterAll(async () => {
    await Promise.all([fanOut?.stop(), cascade?.stop(), recounter?.stop()]);
    await producer?.close();
    await f?.teardown();
  });

  it('recounts degrees from dirty marks, then a REMOVE_NODE cascades to every link and property bag of the vertex and the degrees follow', async () => {
    await Promise.all([
      producer.addEdge({ type: 'follows', src: 'a', dst: 'b', properties: { since: 2020n } }),
      producer.addEdge({ type: 'follows', src: 'a', dst: 'c' }),
      producer.addEdge({ type: 'follows', src: 'd', dst: 'a', properties: { close: true } }),
      producer.addEdge({ type: 'likes', src: 'a', dst: 'e' }),
      producer.addEdge({ type: 'follows', src: 'b', dst: 'c' }),
      producer.flush(),
    ]);
    await waitFor('the fan-out to catch up', () => caughtUp(f.admin, fanOut.groupId, f.topics.input));
    expect(await link('follows', 'a', 'b')).toBe('ACTIVE');
    expect(await bag('follows', 'a', 'b')).toBe(1);
    await waitFor('degrees recounted', async () => (await degree('a', 'follows', 'out')) === 2n && (await degree('c', 'follows', 'in')) === 2n);
    expect(await degree('a', 'follows', 'in')).toBe(1n);
    expect(await degree('a', 'likes', 'out')).toBe(1n);

    await Promise.all([producer.removeNode({ vertex: 'a' }), producer.flush()]);
    await waitFor('the cascade to remove every link of a', async () =>
      (await Promise.all([link('follows', 'a', 'b'), link('follows', 'a', 'c'), link('follows', 'd', 'a'), link('likes', 'a', 'e')])).every((s) => s === 'REMOVED'),
    { timeoutMs: 60_000 });
    expect(await link('follows', 'b', 'c')).toBe('ACTIVE'); // not a's
    // the bag clears (partition tombstones the runtime writes for ClearingMutations) landed too
    await waitFor('the property bags cleared', async () => (await bag('follows', 'a', 'b')) === 0 && (await bag('follows', 'd', 'a')) === 0);
    await waitFor('degrees recounted after the removal', async () =>
      (await degree('a', 'follows', 'out')) === 0n && (await degree('a', 'follows', 'in')) === 0n && (await degree('c', 'follows', 'in')) === 1n && (await degree('e', 'likes', 'in')) === 0n,
    { timeoutMs: 30_000 });
    expect(await degree('b', 'follows', 'out')).toBe(1n);
    expect(cascade.metrics().emitted).toBe(8); // 4 links × (REMOVE_EDGE + bag clear)
  });
});
