import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucketOfKey, encodeVertexKey, splitBucketId, SPLIT_NAMESPACE_SUFFIX, WIDE_ROWS_LOG_NAMESPACE, WIDE_ROWS_NAMESPACE, type WideRowRecord } from '../../sinks/namespaces/index.ts';
import { decorateStore, StoreError, type TwoLevelMapStore } from '../../sinks/store/index.ts';
import { createWideRowRepository } from '../../sinks/wide/index.ts';
import { createEdgeProducer, type EdgeProducer } from '../../streams/producer/index.ts';
import { createEdgePipeline, type EdgePipeline } from '../../streams/topology/createEdgePipeline.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from '../support/edgestreamEnv.ts';
import { recordCount, waitFor } from './runtimeFixture.ts';

// Issue 11 item 5 on the real stack: the fan-out's split-directory reloads fail (wide_rows
// and its change log cannot be read: a fault injected in front of the real Cassandra store) while the chain plans
// a split of follows_in[celeb]. A follow written after the directory went stale must not land in
// the original partition alone: it waits in the repair topic and is mirrored once reloads work.

const REFRESH_MS = 200;
const STALE_MS = 3 * REFRESH_MS; // the default wide.directoryMaxStaleRefreshes
const LAYOUT = { strategy: 'hash', buckets: 4 } as const;

describe('split mirror with failing directory reloads (real Kafka and Cassandra)', () => {
  let env: EdgestreamEnv;
  let producer: EdgeProducer;
  let pipeline: EdgePipeline;
  const fault = { listFails: false };

  /** The real store, except that reading wide_rows or its change log (a directory load) fails while `fault.listFails`. */
  const faulty = (inner: TwoLevelMapStore) =>
    decorateStore(inner, {
      namespace: (name) => {
        const ns = inner.namespace(name);
        if (name !== WIDE_ROWS_NAMESPACE && name !== WIDE_ROWS_LOG_NAMESPACE) return ns;
        return { ...ns, slice: (id, query) => (fault.listFails ? Promise.reject(new StoreError('timeout', `injected: ${name} slice timed out`)) : ns.slice(id, query)) };
      },
    });
  const inOriginal = async (follower: string) => (await env.store.namespace('follows_in').get('celeb', encodeVertexKey(follower))) !== undefined;
  const inSplit = async (follower: string) => {
    const key = encodeVertexKey(follower);
    return (await env.store.namespace(`follows_in${SPLIT_NAMESPACE_SUFFIX}`).get(splitBucketId('celeb', 1, bucketOfKey(LAYOUT, key)), key)) !== undefined;
  };

  beforeAll(async () => {
    env = await createEdgestreamEnv({
      name: 'stalemirror',
      wide: { directoryRefreshMs: REFRESH_MS },
      runtime: { repairInitialBackoffMs: 300, repairMaxBackoffMs: 1_000, repairMaxAttempts: 40 },
    });
    producer = createEdgeProducer({ kafka: env.kafka, serde: env.serde, config: env.config });
    pipeline = createEdgePipeline({ kafka: env.kafka, serde: env.serde, store: faulty(env.store), config: env.config, logger: env.logger, stages: ['fanout', 'repair'] });
    await pipeline.start();
  });

  afterAll(async () => {
    await pipeline?.stop();
    await producer?.close();
    await env?.teardown();
  });

  it('a follow written while the directory is stale goes to repair, not to the original alone, and is mirrored once reloads work', async () => {
    await Promise.all([producer.addEdge({ type: 'follows', src: 'early', dst: 'celeb' }), producer.flush()]);
    await waitFor('the fan-out to write the first follow', () => inOriginal('early'));

    fault.listFails = true;
    const planned: WideRowRecord = {
      namespace: 'follows_in', partitionId: 'celeb', status: 'PLANNED', generation: 1, attempts: 1, splitNamespace: `follows_in${SPLIT_NAMESPACE_SUFFIX}`,
      strategy: LAYOUT.strategy, buckets: LAYOUT.buckets, boundaries: [], rows: 1, bytes: 100, checksum: '', updatedAt: Date.now() * 1000,
    };
    await createWideRowRepository(env.store).put(planned);
    await sleep(STALE_MS + 500); // past the staleness bound

    await Promise.all([producer.addEdge({ type: 'follows', src: 'late', dst: 'celeb' }), producer.flush()]);
    await waitFor('the follow to be handed to repair', async () => (await recordCount(env.admin, env.topics.repair)) > 0, { timeoutMs: 30_000 });
    await sleep(1_000);
    // Never in the original without the split: that is the write a COMPLETED split would miss.
    expect(await inOriginal('late')).toBe(await inSplit('late'));
    expect(await inOriginal('late')).toBe(false);

    fault.listFails = false;
    await waitFor('the repair to write the follow through the mirror', async () => (await inOriginal('late')) && (await inSplit('late')), { timeoutMs: 60_000 });
    expect(await env.dlqCount()).toBe(0);
  });
});
