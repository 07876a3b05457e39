import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFanOutProcessor, createNodeRemovalCascade, degreeRecountLogic } from '../../processors/index.ts';
import { knownSchemas } from '../../schemas/index.ts';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { decodeDegreeCount, decodeLinkValue, edgestreamNamespaces, encodeDegreesKey } from '../../sinks/namespaces/index.ts';
import type { TwoLevelMapStore } from '../../sinks/store/index.ts';
import { createEdgeProducer, type EdgeProducer } from '../../streams/producer/index.ts';
import { createCascadeRunner, createProcessorRuntime, createRecounter, type Clock, type Recounter, type Runner } from '../../streams/runtime/index.ts';
import { followsMutation } from '../support/model/followsMutation.ts';
import { publishMutations } from '../support/publishMutations.ts';
import { caughtUp, createRuntimeFixture, waitFor, type RuntimeFixture } from './runtimeFixture.ts';

// Real Kafka + registry + Cassandra: the real fan-out and cascade, and two delta-mode recounters whose clocks are
// 10 minutes apart, on a vertex with thousands of followers under a steady stream of follows and unfollows.

const FOLLOWERS = 6_000;
const MINUTE = 60_000;
const skewed = (offsetMs: number): Clock => ({
  nowMs: () => Date.now() + offsetMs,
  nowMicros: () => BigInt(Date.now() + offsetMs) * 1000n,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
});

describe('degree counts of a hot vertex on real Kafka and Cassandra (delta recounter)', () => {
  let f: RuntimeFixture;
  let store: TwoLevelMapStore;
  let producer: EdgeProducer;
  let fanOut: Runner;
  let cascade: Runner;
  let recounters: Recounter[];

  const degree = async (vertex: string) => {
    const cell = await store.namespace('degrees').get(vertex, encodeDegreesKey('follows', 'in'));
    return cell === undefined ? undefined : decodeDegreeCount(cell.value);
  };
  /** The truth: ACTIVE cells of follows_in[star], paged. */
  const activeFollowers = async () => {
    let n = 0n;
    let pageState: string | undefined;
    do {
      const page = await store.namespace('follows_in').slice('star', { limit: 5_000, ...(pageState === undefined ? {} : { pageState }) });
      n += BigInt(page.cells.filter((c) => decodeLinkValue(c.value).state === 'ACTIVE').length);
      pageState = page.pageState;
    } while (pageState !== undefined);
    return n;
  };
  const publish = async (events: EdgeMutation[]) => {
    await publishMutations(producer, events);
    await waitFor('the fan-out to catch up', () => caughtUp(f.admin, fanOut.groupId, f.topics.input), { timeoutMs: 120_000 });
  };
  /** One round on both instances at once; the rows they read together. */
  const round = async () => (await Promise.all(recounters.map((r) => r.runOnce()))).reduce((n, r) => n + r.rowsRead, 0);

  beforeAll(async () => {
    f = await createRuntimeFixture('hotcount', { writeRetryBudgetMs: 500, cascadeSettleMs: 5_200 });
    store = await f.openStore({ namespaces: edgestreamNamespaces(f.config) });
    producer = createEdgeProducer({ kafka: f.kafka, serde: f.serde, config: f.config });
    const common = { kafka: f.kafka, serde: f.serde, store, config: f.config, logger: f.logger, schema: knownSchemas.EdgeMutation, validate: f.validate };
    fanOut = createProcessorRuntime({ ...common, processor: createFanOutProcessor(f.config) });
    cascade = createCascadeRunner({
      ...common,
      logic: createNodeRemovalCascade({ edgeTypes: f.config.edgeTypes, maxMutationIdBytes: f.config.limits.maxMutationIdBytes, cascadeSettleMs: f.config.runtime.cascadeSettleMs }),
      upstreamGroupId: fanOut.groupId,
    });
    recounters = [+10 * MINUTE, -10 * MINUTE].map((offset) => createRecounter({ store, logic: degreeRecountLogic, logger: f.logger, clock: skewed(offset), mode: 'delta' }));
    await Promise.all([fanOut.start(), cascade.start()]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([fanOut?.stop(), cascade?.stop()]);
    await producer?.close();
    await f?.teardown();
  });

  it('stays exact under a steady stream of follows, unfollows, duplicates, late events and a node removal, reading rows per round in proportion to the changes', async () => {
    const t0 = BigInt(Date.now()) * 1000n;
    await publish(Array.from({ length: FOLLOWERS }, (_, i) => followsMutation('ADD_EDGE', `f${i}`, 'star', t0 + BigInt(i))));
    await round(); // mirrors the vertex once (no marker yet)
    while ((await round()) > 0 && (await degree('star')) !== BigInt(FOLLOWERS));
    expect(await degree('star')).toBe(BigInt(FOLLOWERS));

    const rowsPerRound: number[] = [];
    for (let wave = 0; wave < 4; wave++) {
      const at = t0 + 1_000_000n * BigInt(wave + 1);
      const follow = followsMutation('ADD_EDGE', `n${wave}`, 'star', at);
      await publish([
        follow,
        follow, // a duplicate (same mutation id and time)
        followsMutation('ADD_EDGE', `m${wave}`, 'star', at + 1n),
        followsMutation('REMOVE_EDGE', `f${wave}`, 'star', at + 2n),
        // Out of order: an unfollow at a later time lands first, the follow it supersedes after it.
        followsMutation('REMOVE_EDGE', `f${100 + wave}`, 'star', at + 10n),
        followsMutation('ADD_EDGE', `f${100 + wave}`, 'star', at + 5n),
      ]);
      rowsPerRound.push(await round());
      expect(await degree('star')).toBe(await activeFollowers());
    }
    // A follower is removed: the cascade removes its link to star (and the counts follow).
    // Each wave added two followers and removed two: still FOLLOWERS.
    expect(await activeFollowers()).toBe(BigInt(FOLLOWERS));
    await publish([followsMutation('REMOVE_NODE', 'f200', '', t0 + 10_000_000n)]);
    await waitFor('the cascade', async () => (await activeFollowers()) === BigInt(FOLLOWERS - 1), { timeoutMs: 60_000 });
    await waitFor('the counts once quiet', async () => (await round(), (await degree('star')) === BigInt(FOLLOWERS - 1)), { timeoutMs: 60_000 });
    expect(await degree('star')).toBe(await activeFollowers());
    expect(await degree('n0')).toBeUndefined(); // counts only where asked: follows_in of star
    // Each round of both instances read a small fraction of the partition (the full recounter reads it twice per instance).
    for (const rows of rowsPerRound) expect(rows).toBeLessThan(FOLLOWERS / 4);

    // The full recounter on the same data, for comparison: it reads the whole partition, twice.
    await publish([followsMutation('ADD_EDGE', 'late', 'star', t0 + 20_000_000n)]);
    const full = createRecounter({ store, logic: degreeRecountLogic, logger: f.logger, mode: 'full' });
    expect((await full.runOnce()).rowsRead).toBeGreaterThan(2 * FOLLOWERS);
    expect(await degree('star')).toBe(BigInt(FOLLOWERS));
    // The full recount voided the mirror's marker: the next delta round mirrors once more and stays exact.
    await publish([followsMutation('REMOVE_EDGE', 'late', 'star', t0 + 20_000_001n)]);
    while ((await round()) > 0 && (await degree('star')) !== BigInt(FOLLOWERS - 1));
    expect(await degree('star')).toBe(await activeFollowers());
  }, 600_000);
});
