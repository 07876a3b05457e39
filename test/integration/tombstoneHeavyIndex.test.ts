import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFanOutProcessor } from '../../processors/fanout/createFanOutProcessor.ts';
import { currentLinkRead } from '../../processors/fanout/fanOutReads.ts';
import { allWrites, type ReadRequest } from '../../processors/contract/EventProcessor.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { createEdgeReader, createReadCounters, createStorePartitionReader, type EdgeReader, type Neighbour } from '../../reads/index.ts';
import { createServingPartitions, type ServingPartitions } from '../../reads/split/createServingPartitions.ts';
import { recordingPartitionReader } from '../../reads/testing/recordingPartitionReader.ts';
import { createWideRowRepository } from '../../sinks/wide/index.ts';
import { createWidePartitionPublisher, type WidePartitionPublisher } from '../../streams/producer/index.ts';
import type { Runner } from '../../streams/runtime/index.ts';
import { createSplitChain } from '../../streams/runtime/split/index.ts';
import { EdgeOp, type EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { encodeLinkValue, LinkState } from '../../sinks/namespaces/index.ts';
import { cellKey } from '../../sinks/store/cellKey.ts';
import type { Cell, Mutation } from '../../sinks/store/index.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from '../support/edgestreamEnv.ts';

const FOLLOWS = 160_000;
const PURGED = 150_000; // the newest ones, unfollowed: more than Cassandra's tombstone_failure_threshold (100 000)
const KEPT = FOLLOWS - PURGED;

/**
 * Issue 11 item 4, a bot purge on real Cassandra: 160 000 follows of one
 * celebrity, then the newest 150 000 unfollowed. Each unfollow deletes its
 * `follows_in_recent` entry, so the newest end of the index is a run of
 * 150 000 row tombstones. The rows are written by the real fan-out logic
 * (createFanOutProcessor) straight into the store in large batches, keeping
 * only the celebrity's partitions (the followers' own partitions are not what
 * is tested and would quadruple the writes).
 */
describe('a tombstone-heavy newest-first index (bot purge) on Cassandra', () => {
  let env: EdgestreamEnv;
  let reader: EdgeReader;
  let serving: ServingPartitions | undefined;
  let publisher: WidePartitionPublisher | undefined;
  const runners: Runner[] = [];
  const rand = randomBytes(3).toString('hex');
  const celebrity = `celebrity-${rand}`;
  const base = BigInt(Date.now() - 86_400_000) * 1000n; // a day ago, in µs
  const follower = (i: number) => `f${i}`;
  const followedAt = (i: number) => base + BigInt(i);
  /** The KEPT oldest followers, newest first: what every newest-order read must return. */
  const expected = Array.from({ length: KEPT }, (_, j) => KEPT - 1 - j).map((i) => ({ peer: follower(i), time: followedAt(i) }));

  const mutation = (op: EdgeOp, i: number, at: bigint): EdgeMutation => ({
    mutation_id: `${rand}-${op === EdgeOp.ADD_EDGE ? 'add' : 'rm'}-${i}`,
    op,
    edge_type: 'follows',
    src: follower(i),
    dst: celebrity,
    event_time: at,
    properties: {},
    property_keys: [],
  });

  /** The fan-out's writes for the celebrity's partitions, given what its reads would have returned. */
  const celebrityWrites = (events: readonly EdgeMutation[], linkBefore: (e: EdgeMutation) => Cell | undefined): Mutation[] => {
    const fanOut = createFanOutProcessor(env.config);
    const writes: Mutation[] = [];
    for (const event of events) {
      const link = currentLinkRead(event.edge_type, event.src, event.dst);
      const reads = { get: (r: ReadRequest) => (cellKey(r.namespace, r.id, r.key) === cellKey(link.namespace, link.id, link.key) ? linkBefore(event) : undefined) };
      for (const m of allWrites(fanOut.process(event, reads, { wallClockMicros: event.event_time }))) if (m.id === celebrity) writes.push(m);
    }
    return writes;
  };

  const writeAll = async (mutations: readonly Mutation[]) => {
    const chunk = 4_000;
    const chunks: Mutation[][] = [];
    for (let i = 0; i < mutations.length; i += chunk) chunks.push(mutations.slice(i, i + chunk));
    for (let i = 0; i < chunks.length; i += 4) await Promise.all(chunks.slice(i, i + 4).map((c) => env.store.mutateMany(c)));
  };

  const scanNewest = async (pageSize: number, through = reader): Promise<Neighbour[]> => {
    const all: Neighbour[] = [];
    let cursor: string | undefined;
    do {
      const page = await through.in('follows', celebrity, { limit: pageSize, order: 'newest', ...(cursor === undefined ? {} : { cursor }) });
      all.push(...page.items);
      cursor = page.cursor;
    } while (cursor !== undefined);
    return all;
  };

  beforeAll(async () => {
    env = await createEdgestreamEnv({ name: 'tombstones', wide: { directoryRefreshMs: 500, verifySettleMs: 2_000, windowMs: 600_000, coolDownMs: 600_000 } });
    reader = createEdgeReader({ partitions: createStorePartitionReader(env.store), config: env.config });
    const adds = Array.from({ length: FOLLOWS }, (_, i) => mutation(EdgeOp.ADD_EDGE, i, followedAt(i)));
    await writeAll(celebrityWrites(adds, () => undefined));
    const purge = Array.from({ length: PURGED }, (_, j) => mutation(EdgeOp.REMOVE_EDGE, KEPT + j, base + 1_000_000_000n + BigInt(j)));
    await writeAll(
      celebrityWrites(purge, (e) => {
        const i = Number(e.src.slice(1));
        return { key: new Uint8Array(), value: encodeLinkValue({ state: LinkState.ACTIVE, time: followedAt(i), mutationId: `${rand}-add-${i}` }), writeTime: followedAt(i) };
      }),
    );
  }, 300_000);

  afterAll(async () => {
    for (const r of runners) await r.stop().catch(() => {});
    serving?.stop();
    await publisher?.close().catch(() => {});
    await env?.teardown();
  });

  it('the peer-order page still reads (the link namespace holds REMOVED values, not tombstones)', async () => {
    const page = await reader.in('follows', celebrity, { limit: 50, order: 'peer' });
    expect(page.items).toHaveLength(50);
    expect(page.items.every((n) => Number(n.peer.slice(1)) < KEPT)).toBe(true);
  });

  it('the newest-followers page skips the 150 000 unfollowed and returns the newest who stayed', async () => {
    const page = await reader.in('follows', celebrity, { limit: 50 });
    expect(page.items.map(({ peer, time }) => ({ peer, time }))).toEqual(expected.slice(0, 50));
    expect(page.cursor).toBeDefined();
    const next = await reader.in('follows', celebrity, { limit: 50, cursor: page.cursor as string });
    expect(next.items.map(({ peer, time }) => ({ peer, time }))).toEqual(expected.slice(50, 100));
  });

  it('a full newest-first cursor scan returns every follower who stayed, newest first, once', async () => {
    const all = await scanNewest(5_000);
    expect(all.map(({ peer, time }) => ({ peer, time }))).toEqual(expected);
  });

  it('the read counters flag the index, and the split chain rebuilds it from the links: newest pages then come from tombstone-free buckets in two queries', async () => {
    const live = serving = createServingPartitions(env.store, env.config);
    await live.start();
    const events = createWidePartitionPublisher({ kafka: env.kafka, serde: env.serde, config: env.config, logger: env.logger });
    publisher = events;
    const detected: string[] = [];
    const counters = createReadCounters({ wide: env.config.wide, onWide: (e) => void (detected.push(e.namespace), events.publish(e)) });
    const chain = createSplitChain({ kafka: env.kafka, serde: env.serde, store: env.store, config: env.config, logger: env.logger, stages: ['plan', 'split', 'verify'] });
    for (const r of chain.values()) runners.push(r);
    await Promise.all([...chain.values()].map((r) => r.start()));

    // One newest page, derived from the 160 000 links, is as costly as reading a wide partition.
    const recording = recordingPartitionReader(live.partitions);
    const serve = createEdgeReader({ partitions: recording.reader, config: env.config, counters });
    expect((await serve.in('follows', celebrity, { limit: 50 })).items.map((n) => n.peer)).toEqual(expected.slice(0, 50).map((e) => e.peer));
    expect(detected).toEqual(['follows_in_recent']);

    const repository = createWideRowRepository(env.store);
    const deadline = Date.now() + 150_000;
    for (;;) {
      const record = await repository.get('follows_in_recent', celebrity);
      if (record?.status === 'COMPLETED' || record?.status === 'FAILED') break;
      if (Date.now() > deadline) throw new Error(`the split did not finish: ${JSON.stringify(record)}`);
      await sleep(250);
    }
    const record = await repository.get('follows_in_recent', celebrity);
    expect(record).toMatchObject({ status: 'COMPLETED', rows: KEPT, verification: { mismatchedKeys: 0, rowsCompared: KEPT } });
    await sleep(3 * env.config.wide.directoryRefreshMs);

    recording.reset();
    const page = await serve.in('follows', celebrity, { limit: 50 });
    expect(page.items.map(({ peer, time }) => ({ peer, time }))).toEqual(expected.slice(0, 50));
    expect(recording.calls.map((c) => [c.kind, c.namespace])).toEqual([
      ['page', 'follows_in_recent'],
      ['getKeys', 'follows_in'],
    ]);
    expect((await scanNewest(1_000, serve)).map(({ peer, time }) => ({ peer, time }))).toEqual(expected);
  }, 240_000);
});
