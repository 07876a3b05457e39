import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFanOutProcessor, degreeRecountLogic } from '../../processors/index.ts';
import { knownSchema, knownSchemas, type EdgeMutation } from '../../schemas/index.ts';
import { createEdgeReader, createStorePartitionReader, type EdgeReader } from '../../reads/index.ts';
import { decodeLinkValue, edgestreamNamespaces, forwardLinkNamespace } from '../../sinks/namespaces/index.ts';
import type { TwoLevelMapStore } from '../../sinks/store/index.ts';
import { createEdgeProducer, type EdgeProducer } from '../../streams/producer/index.ts';
import { createProcessorRuntime, createRecounter, type Recounter, type Runner } from '../../streams/runtime/index.ts';
import { createAvroSerde, encodeWireFrame, registerSchemas } from '../../streams/serde/index.ts';
import { edgeMutationV1Avsc } from '../../streams/serde/testHelpers/edgeMutationV1Avsc.ts';
import { avroTypeFor } from '../../schemas/index.ts';
import { stackEndpoints } from '../support/stack.ts';
import { uniqueName } from '../support/uniqueName.ts';
import { caughtUp, createRuntimeFixture, waitFor, type RuntimeFixture } from './runtimeFixture.ts';

// Real Kafka + registry + Cassandra: events through the producer SDK, the real fan-out and the
// recounter, read back through the edge reader. Nothing is faked.

describe('EdgeMutation v2 on the real schema registry', () => {
  it('registers as version 2 of a subject holding v1 (BACKWARD), and v1 records still decode with the v2 reader', async () => {
    const registryUrl = stackEndpoints().schemaRegistryUrl;
    const registry = new SchemaRegistry({ host: registryUrl });
    const topic = uniqueName('edgestream.it.edge-mutation-v2');
    const v1 = knownSchema<EdgeMutation>({ avsc: edgeMutationV1Avsc, version: 1, subjectSuffix: 'value' });
    const [first] = await registerSchemas(registry, { [topic]: v1 });
    const [second] = await registerSchemas(registry, { [topic]: knownSchemas.EdgeMutation });
    expect(second?.schemaId).not.toBe(first?.schemaId);
    const res = await fetch(`${registryUrl}/subjects/${encodeURIComponent(`${topic}-value`)}/versions`, { headers: { Accept: 'application/vnd.schemaregistry.v1+json' } });
    expect(await res.json()).toEqual([1, 2]);

    const old = { mutation_id: 'm-v1', op: 'ADD_EDGE', edge_type: 'follows', src: 'a', dst: 'b', event_time: 1_700_000_000_000_000n, properties: {}, property_keys: [] };
    const bytes = encodeWireFrame(first!.schemaId, avroTypeFor(edgeMutationV1Avsc).toBuffer(old));
    const decoded = await createAvroSerde({ registry: new SchemaRegistry({ host: registryUrl }) }).decode(bytes, knownSchemas.EdgeMutation);
    expect(decoded.value).toEqual({ ...old, edge_time: null, data: null });
  });
});

describe('hidden edges, edge times and edge data through Kafka, the fan-out and Cassandra', () => {
  let f: RuntimeFixture;
  let store: TwoLevelMapStore;
  let producer: EdgeProducer;
  let fanOut: Runner;
  let recounter: Recounter;
  let reader: EdgeReader;

  beforeAll(async () => {
    f = await createRuntimeFixture('hidden', { recountIntervalMs: 200 });
    store = await f.openStore({ namespaces: edgestreamNamespaces(f.config) });
    producer = createEdgeProducer({ kafka: f.kafka, serde: f.serde, config: f.config });
    fanOut = createProcessorRuntime({
      kafka: f.kafka, serde: f.serde, store, config: f.config, logger: f.logger, schema: knownSchemas.EdgeMutation, validate: f.validate,
      processor: createFanOutProcessor(f.config),
    });
    recounter = createRecounter({ store, logic: degreeRecountLogic, logger: f.logger, intervalMs: f.config.runtime.recountIntervalMs });
    await fanOut.start();
    recounter.start();
    reader = createEdgeReader({ partitions: createStorePartitionReader(store), config: f.config });
  });

  afterAll(async () => {
    await Promise.all([fanOut?.stop(), recounter?.stop()]);
    await producer?.close();
    await f?.teardown();
  });

  const settle = () => waitFor('the fan-out to catch up', () => caughtUp(f.admin, fanOut.groupId, f.topics.input));
  const newestPeers = async (vertex: string) => (await reader.out('follows', vertex, { limit: 10 })).items.map((n) => n.peer);

  it('a hidden edge keeps its point read (HIDDEN), leaves pages and counts; unhide brings it back; a newer edge time moves an edge to the front; data rides on the link', async () => {
    const t0 = 1_800_000_000_000_000n; // edge times, independent of (here after) the events' wall-clock times
    const data = Uint8Array.from([0xca, 0xfe, 0x00, 0x01]);
    await Promise.all([
      producer.addEdge({ type: 'follows', src: 'u', dst: 'x', edgeTime: t0 + 1n }),
      producer.addEdge({ type: 'follows', src: 'u', dst: 'y', edgeTime: t0 + 2n, data }),
      producer.addEdge({ type: 'follows', src: 'u', dst: 'z', edgeTime: t0 + 3n }),
      producer.flush(),
    ]);
    await settle();
    expect(await newestPeers('u')).toEqual(['z', 'y', 'x']);
    expect(await reader.edge('follows', 'u', 'y')).toEqual({ state: 'ACTIVE', time: t0 + 2n, mutationId: expect.any(String), data });
    // The page reads the link cells; the data is in the value it reads (no property read).
    const linkCells = (await store.namespace(forwardLinkNamespace('follows')).slice('u', { limit: 10 })).cells;
    expect(linkCells.map((c) => decodeLinkValue(c.value).data)).toContainEqual(data);
    await waitFor('u out-degree 3', async () => (await reader.count('follows', 'u', 'out')) === 3n);

    await producer.hideEdge({ type: 'follows', src: 'u', dst: 'z', edgeTime: t0 + 3n });
    await settle();
    expect((await reader.edge('follows', 'u', 'z'))?.state).toBe('HIDDEN');
    expect(await newestPeers('u')).toEqual(['y', 'x']);
    expect((await reader.in('follows', 'z', { limit: 10 })).items).toEqual([]);
    await waitFor('hidden edge left the counts', async () => (await reader.count('follows', 'u', 'out')) === 2n && (await reader.count('follows', 'z', 'in')) === 0n);

    // Re-adding x with a newer edge time moves it to the front; its stale entry is skipped.
    await producer.addEdge({ type: 'follows', src: 'u', dst: 'x', edgeTime: t0 + 10n });
    await settle();
    expect(await newestPeers('u')).toEqual(['x', 'y']);

    await producer.unhideEdge({ type: 'follows', src: 'u', dst: 'z', edgeTime: t0 + 3n });
    await settle();
    expect((await reader.edge('follows', 'u', 'z'))?.state).toBe('ACTIVE');
    expect(await newestPeers('u')).toEqual(['x', 'z', 'y']);
    await waitFor('unhidden edge counted again', async () => (await reader.count('follows', 'u', 'out')) === 3n);
  });

  it('rejects data over limits.maxEdgeDataBytes at the SDK, naming the argument', async () => {
    await expect(producer.addEdge({ type: 'follows', src: 'u', dst: 'big', data: new Uint8Array(256) })).rejects.toThrow(/ADD_EDGE: data: is 256 bytes, more than the 255 allowed/);
  });
});
