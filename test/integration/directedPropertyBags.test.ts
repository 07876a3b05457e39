import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFanOutProcessor } from '../../processors/index.ts';
import { createEdgeReader } from '../../reads/createEdgeReader.ts';
import { createStorePartitionReader } from '../../reads/createStorePartitionReader.ts';
import type { EdgeReader } from '../../reads/EdgeReader.ts';
import { knownSchemas } from '../../schemas/index.ts';
import { migrateBagsCommand } from '../../cli/commands/migrateBags.ts';
import { edgePropsId, edgestreamNamespaces, encodePropertyValue } from '../../sinks/namespaces/index.ts';
import type { TwoLevelMapStore } from '../../sinks/store/index.ts';
import { stackEndpoints } from '../support/stack.ts';
import { createEdgeProducer, type EdgeProducer } from '../../streams/producer/index.ts';
import { createProcessorRuntime, type Runner } from '../../streams/runtime/index.ts';
import { caughtUp, createRuntimeFixture, waitFor, type RuntimeFixture } from './runtimeFixture.ts';

// Issue 11 item 2 through the real pipeline: producer SDK → Kafka (Avro, registry) →
// fan-out runtime → Cassandra, read back with the real reader. Mutual follows are
// two edges with two bags in one vertex-pair partition.

describe('directed property bags on real Kafka and Cassandra', () => {
  let f: RuntimeFixture;
  let producer: EdgeProducer;
  let fanOut: Runner;
  let reader: EdgeReader;
  let store: TwoLevelMapStore;

  const drained = () => waitFor('the fan-out to catch up', () => caughtUp(f.admin, fanOut.groupId, f.topics.input));

  beforeAll(async () => {
    f = await createRuntimeFixture('bags');
    store = await f.openStore({ namespaces: edgestreamNamespaces(f.config) });
    producer = createEdgeProducer({ kafka: f.kafka, serde: f.serde, config: f.config });
    fanOut = createProcessorRuntime({
      kafka: f.kafka,
      serde: f.serde,
      store,
      config: f.config,
      logger: f.logger,
      schema: knownSchemas.EdgeMutation,
      validate: f.validate,
      processor: createFanOutProcessor(f.config),
    });
    await fanOut.start();
    reader = createEdgeReader({ partitions: createStorePartitionReader(store), config: f.config, counters: { record: () => {} } });
  });

  afterAll(async () => {
    await fanOut?.stop();
    await producer?.close();
    await f?.teardown();
  });

  it('mutual follows keep their own properties, and clearing one direction leaves the other', async () => {
    const t0 = BigInt(Date.now()) * 1000n;
    await Promise.all([
      producer.addEdge({ type: 'follows', src: 'ann', dst: 'bob', properties: { since: 2020n }, eventTime: t0 }),
      producer.addEdge({ type: 'follows', src: 'bob', dst: 'ann', properties: { since: 2023n, close: true }, eventTime: t0 + 1n }),
      producer.addEdge({ type: 'follows', src: 'cid', dst: 'dan', properties: { since: 2019n }, eventTime: t0 }),
      producer.addEdge({ type: 'follows', src: 'dan', dst: 'cid', properties: { since: 2021n }, eventTime: t0 + 1n }),
      producer.flush(),
    ]);
    await drained();
    expect(await reader.props('follows', 'ann', 'bob')).toEqual({ since: 2020n });
    expect(await reader.props('follows', 'bob', 'ann')).toEqual({ since: 2023n, close: true });

    await Promise.all([
      producer.removeProperties({ type: 'follows', src: 'ann', dst: 'bob', keys: [], eventTime: t0 + 10n }), // clear ann→bob
      producer.removeProperties({ type: 'follows', src: 'dan', dst: 'cid', keys: ['since'], eventTime: t0 + 10n }),
      // Older than the clear, arriving after it: stays hidden (LWW at the clear's time).
      producer.setProperties({ type: 'follows', src: 'ann', dst: 'bob', properties: { muted: true }, eventTime: t0 + 5n }),
      producer.flush(),
    ]);
    await drained();
    expect(await reader.props('follows', 'ann', 'bob')).toEqual({});
    expect(await reader.props('follows', 'bob', 'ann')).toEqual({ since: 2023n, close: true });
    expect(await reader.props('follows', 'cid', 'dan')).toEqual({ since: 2019n });
    expect(await reader.props('follows', 'dan', 'cid')).toEqual({});
    expect(await reader.props('follows', 'bob', 'ann', ['since'])).toEqual({ since: 2023n });
  });

  it('migrate-bags moves bags of the old shared layout into the directions that have links, keeping LWW', async () => {
    const t0 = BigInt(Date.now()) * 1000n;
    await Promise.all([
      producer.addEdge({ type: 'follows', src: 'm1', dst: 'm2', eventTime: t0 }),
      producer.addEdge({ type: 'follows', src: 'm2', dst: 'm1', eventTime: t0 }),
      producer.addEdge({ type: 'follows', src: 'o2', dst: 'o1', eventTime: t0 }),
      producer.addEdge({ type: 'follows', src: 'c1', dst: 'c2', eventTime: t0 }),
      producer.removeProperties({ type: 'follows', src: 'c1', dst: 'c2', keys: [], eventTime: t0 + 5n }), // a newer clear in the new layout
      producer.flush(),
    ]);
    await drained();
    // What the old code wrote: one bag per pair, keys = bare names.
    const props = store.namespace('follows_props');
    const legacy = (a: string, b: string, name: string, value: bigint, at: bigint) => props.put(edgePropsId(a, b), Buffer.from(name), encodePropertyValue(value), at);
    await legacy('m1', 'm2', 'since', 2020n, t0);
    await legacy('o1', 'o2', 'since', 2021n, t0);
    await legacy('c1', 'c2', 'since', 2022n, t0);
    expect(await reader.props('follows', 'o2', 'o1')).toEqual({}); // invisible to the new layout until migrated

    const config = { ...f.config, cassandra: { ...f.config.cassandra, keyspace: f.keyspace } };
    expect(await migrateBagsCommand(stackEndpoints(), config, store)).toEqual({ partitions: 3, moved: 3 });
    expect(await reader.props('follows', 'm1', 'm2')).toEqual({ since: 2020n }); // mutual: both directions, as readers saw it before
    expect(await reader.props('follows', 'm2', 'm1')).toEqual({ since: 2020n });
    expect(await reader.props('follows', 'o2', 'o1')).toEqual({ since: 2021n }); // the direction with the link
    expect(await reader.props('follows', 'o1', 'o2')).toEqual({});
    expect(await reader.props('follows', 'c1', 'c2')).toEqual({}); // the newer clear still wins
    expect((await props.slice(edgePropsId('m1', 'm2'), { start: Uint8Array.of(1), limit: 10 })).cells).toEqual([]); // old rows gone
    expect(await migrateBagsCommand(stackEndpoints(), config, store)).toEqual({ partitions: 0, moved: 0 });
  });
});
