import { setTimeout as sleep } from 'node:timers/promises';
import type { RecordHeaders } from '../../streams/kafka/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupsLag } from '../../cli/commands/lag.ts';
import { degreeRecountLogic } from '../../processors/index.ts';
import { createEdgeReader, createStorePartitionReader } from '../../reads/index.ts';
import { knownSchemas, type EdgeMutation, type SplitTask } from '../../schemas/index.ts';
import { decodeDegreeCount, degreeDirtyShard, degreeDirtyShards, encodeDegreesKey, splittableNamespaces, type WideRowRecord } from '../../sinks/namespaces/index.ts';
import { createSplitLayoutReader, createWideRowRepository, type WideRowRepository } from '../../sinks/wide/index.ts';
import { createEdgeProducer, type EdgeProducer } from '../../streams/producer/index.ts';
import { createRecounter, createShardOwnership, HEADERS, type Clock, type Recounter, type ShardOwnership } from '../../streams/runtime/index.ts';
import { subjectFor } from '../../streams/serde/index.ts';
import { copyPartition } from '../../streams/runtime/split/copyPartition.ts';
import type { StageContext } from '../../streams/runtime/split/createSplitStageRunner.ts';
import { planPartition } from '../../streams/runtime/split/planPartition.ts';
import type { SplitStageDeps } from '../../streams/runtime/split/splitStageDeps.ts';
import { verifySplit } from '../../streams/runtime/split/verifySplit.ts';
import { createEdgePipeline, edgePipelineGroups, recounterGroup, type EdgePipeline } from '../../streams/topology/createEdgePipeline.ts';
import { consumeMessages } from '../support/consumeMessages.ts';
import { createEdgestreamEnv, type EdgestreamEnv } from '../support/edgestreamEnv.ts';
import { waitFor as waitUntil } from '../support/waitFor.ts';

// Issue 11.7 on the real stack: processes whose wall clocks disagree by minutes. Each
// clock below is the system clock shifted by a fixed offset (streams/runtime Clock).

const MINUTE = 60_000;
const skewedClock = (offsetMs: number): Clock => ({
  nowMs: () => Date.now() + offsetMs,
  nowMicros: () => BigInt(Date.now() + offsetMs) * 1000n,
  sleep: (ms) => sleep(Math.max(0, ms)),
});

describe('clock skew between processes (real Kafka and Cassandra)', () => {
  let env: EdgestreamEnv;
  let producer: EdgeProducer;
  let pipeline: EdgePipeline;
  const recounters: Recounter[] = [];

  const caughtUp = async () => {
    const groups = edgePipelineGroups(env.config).filter((g) => g.stage === 'fanout');
    return (await groupsLag(env.admin, groups)).every((l) => l.lag === 0);
  };
  const waitFor = (what: string, check: () => Promise<boolean>, timeoutMs = 30_000) => waitUntil(what, check, timeoutMs);
  const follow = async (followers: readonly string[], celeb: string) => {
    await Promise.all(followers.map((f) => producer.addEdge({ type: 'follows', src: f, dst: celeb })));
    await producer.flush();
    await waitFor('the fan-out to catch up', caughtUp);
  };
  const inDegree = async (vertex: string) => {
    const cell = await env.store.namespace('degrees').get(vertex, encodeDegreesKey('follows', 'in'));
    return cell === undefined ? undefined : decodeDegreeCount(cell.value);
  };

  beforeAll(async () => {
    env = await createEdgestreamEnv({ name: 'skew', wide: { directoryRefreshMs: 200 } });
    producer = createEdgeProducer({ kafka: env.kafka, serde: env.serde, config: env.config });
    pipeline = createEdgePipeline({ kafka: env.kafka, serde: env.serde, store: env.store, config: env.config, logger: env.logger, stages: ['fanout'] });
    await pipeline.start();
  });

  afterAll(async () => {
    await Promise.all(recounters.map((r) => r.stop()));
    await pipeline?.stop();
    await producer?.close();
    await env?.teardown();
  });

  it('the fan-out dead-letters an event older than the resurrection horizon or beyond the skew window, naming the bound, and applies neither', async () => {
    const DAY_US = 86_400_000_000n;
    const now = BigInt(Date.now()) * 1000n;
    const event = (over: Partial<EdgeMutation> & Pick<EdgeMutation, 'mutation_id' | 'op' | 'src' | 'dst' | 'event_time'>): EdgeMutation => ({ edge_type: 'follows', properties: {}, property_keys: [], ...over });
    await producer.addEdge({ type: 'follows', src: 'bounded', dst: 'target', properties: { color: 'red' } });
    await producer.flush();
    // The SDK refuses both times itself; a producer of raw records is what the fan-out has to stop.
    const raw = env.kafka.producer();
    await raw.connect();
    const subject = subjectFor(env.topics.input, knownSchemas.EdgeMutation);
    const send = async (e: EdgeMutation, headers?: RecordHeaders) =>
      raw.send({ topic: env.topics.input, messages: [{ key: e.src, value: await env.serde.encode(subject, e), ...(headers ? { headers } : {}) }] });
    try {
      // 10 days old against the default 9-day horizon: a new edge, and a property the pair never had.
      await send(event({ mutation_id: 'too-old-add', op: 'ADD_EDGE', src: 'ancient', dst: 'target', event_time: now - 10n * DAY_US }));
      await send(event({ mutation_id: 'too-old-set', op: 'SET_PROPERTIES', src: 'bounded', dst: 'target', event_time: now - 10n * DAY_US, properties: { muted: true } }));
      // 10 minutes ahead against the default 5-minute window: it would overwrite red and block re-adds for 10 minutes.
      await send(event({ mutation_id: 'too-new-set', op: 'SET_PROPERTIES', src: 'bounded', dst: 'target', event_time: now + 600_000_000n, properties: { color: 'green' } }));
      // `replay --force` marks what it re-publishes: the operator accepted the age, so the horizon is waived.
      await send(event({ mutation_id: 'forced-old-add', op: 'ADD_EDGE', src: 'forced', dst: 'target', event_time: now - 10n * DAY_US }), { [HEADERS.replayForced]: '1' });
    } finally {
      await raw.disconnect();
    }
    await producer.addEdge({ type: 'follows', src: 'bounded', dst: 'after' });
    await producer.flush();
    await waitFor('the fan-out to catch up', caughtUp);

    const dead = (await consumeMessages(env.kafka, env.topics.dlq, 3, { timeoutMs: 30_000 })).map((m) => ({
      key: m.key?.toString(),
      reason: m.headers?.[HEADERS.dlqReason]?.toString(),
      field: m.headers?.[HEADERS.dlqField]?.toString(),
      error: m.headers?.[HEADERS.dlqError]?.toString() ?? '',
    }));
    const byKey = (key: string, error: string) => dead.filter((d) => d.key === key && d.error.includes(error));
    expect(dead.every((d) => d.reason === 'invalid' && d.field === 'event_time')).toBe(true);
    expect(byKey('ancient', 'past the resurrection horizon')).toHaveLength(1);
    expect(byKey('bounded', 'past the resurrection horizon')).toHaveLength(1);
    expect(byKey('bounded', 'beyond the skew window (limits.maxFutureSkewMs 300000)')).toHaveLength(1);
    expect(dead.find((d) => d.error.includes('past the resurrection horizon'))?.error).toMatch(/24\.0 h past the resurrection horizon \(9\.0 days = retention\.gcGraceSeconds 864000/);

    const reader = createEdgeReader({ partitions: createStorePartitionReader(env.store), config: env.config });
    expect(await reader.edge('follows', 'ancient', 'target')).toBeUndefined();
    expect(await reader.props('follows', 'bounded', 'target')).toEqual({ color: 'red' });
    expect(await reader.edge('follows', 'forced', 'target')).toMatchObject({ state: 'ACTIVE', mutationId: 'forced-old-add' });
  });

  it('two recounters whose clocks differ by 20 minutes converge to the exact degree', async () => {
    const recounter = (offsetMs: number) => {
      const r = createRecounter({ store: env.store, logic: degreeRecountLogic, logger: env.logger, clock: skewedClock(offsetMs), intervalMs: 100 });
      recounters.push(r);
      return r;
    };
    const fast = recounter(+10 * MINUTE);
    const slow = recounter(-10 * MINUTE);
    const followers = Array.from({ length: 12 }, (_, i) => `f${i}`);

    await follow(followers.slice(0, 5), 'celeb');
    await fast.runOnce();
    expect(await inDegree('celeb')).toBe(5n);

    // New follows after the fast instance's round: their marks are stamped by the fan-out's clock.
    await follow(followers.slice(5, 9), 'celeb');
    fast.start();
    slow.start();
    await waitFor('the degree to reach 9 with both recounters running', async () => (await inDegree('celeb')) === 9n, 15_000);

    // Only the slow instance is left: its counts must still replace the fast one's.
    await fast.stop();
    await follow(followers.slice(9), 'celeb');
    await waitFor('the slow recounter alone to reach 12', async () => (await inDegree('celeb')) === 12n, 15_000);
    await slow.stop();
    expect(await inDegree('celeb')).toBe(12n);
  });

  it('recounter instances divide the degree_dirty shards by group assignment, and the survivor takes them all', async () => {
    const ownership = () =>
      createShardOwnership({ kafka: env.kafka, groupId: `${recounterGroup(env.config)}-own`, topic: env.topics.input, markPartitions: degreeDirtyShards(), logger: env.logger, sessionTimeoutMs: 8_000 });
    const [a, b] = [ownership(), ownership()];
    const owned = (o: ShardOwnership) => degreeDirtyShards().filter((s) => o.owns(s));
    try {
      await Promise.all([a.start(), b.start()]);
      await waitFor('both instances to own shards', async () => owned(a).length > 0 && owned(b).length > 0);
      expect(owned(a).filter((s) => b.owns(s))).toEqual([]);
      expect(owned(a).length + owned(b).length).toBe(degreeDirtyShards().length);
      await b.stop();
      await waitFor('the survivor to own every shard', async () => owned(a).length === degreeDirtyShards().length);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('two pipeline recounters 20 minutes apart share the shards and converge to every exact degree', async () => {
    const recounting = [+10 * MINUTE, -10 * MINUTE].map((offset) =>
      createEdgePipeline({ kafka: env.kafka, serde: env.serde, store: env.store, config: env.config, logger: env.logger, stages: ['recount'], clock: skewedClock(offset) }),
    );
    const celebs = Array.from({ length: 8 }, (_, i) => `star${i}`);
    expect(new Set(celebs.map(degreeDirtyShard)).size).toBeGreaterThan(1);
    try {
      await Promise.all(recounting.map((p) => p.start()));
      for (let wave = 1; wave <= 3; wave++) {
        await Promise.all(celebs.map((c, i) => follow(Array.from({ length: i + wave }, (_, j) => `fan${wave}-${j}`), c)));
        const expected = (i: number) => BigInt(Array.from({ length: wave }, (_, w) => i + w + 1).reduce((a, b) => a + b, 0));
        await waitFor(`wave ${wave}: every degree exact`, async () => (await Promise.all(celebs.map(inDegree))).every((d, i) => d === expected(i)), 20_000);
      }
    } finally {
      await Promise.all(recounting.map((p) => p.stop()));
    }
  });

  it('a zombie splitter with a fast clock cannot regress a COMPLETED split status', async () => {
    const repository = createWideRowRepository(env.store);
    const deps: SplitStageDeps = {
      store: env.store,
      repository,
      layoutReader: createSplitLayoutReader(env.store),
      config: env.config,
      strategies: splittableNamespaces(env.config.edgeTypes),
    };
    const context = (clock: Clock): StageContext => ({
      clock,
      logger: env.logger,
      heartbeat: async () => {},
      emit: async () => {},
      op: (_what, _boundary, fn) => fn(),
    });
    await follow(Array.from({ length: 30 }, (_, i) => `z${i}`), 'wide');
    const task: SplitTask = { namespace: 'follows_in', partition_id: 'wide', generation: 1, requested_at: 0n };
    await planPartition({ namespace: 'follows_in', partition_id: 'wide', bytes_read: 0n, rows_read: 0n, rows_returned: 0n, detected_at: 0n, immutable: false, window_ms: 0n }, deps, context(skewedClock(0)));
    // The live splitter and verifier run on a clock past the mirror barrier, so nothing waits.
    const live = context(skewedClock(MINUTE));
    expect((await repository.get('follows_in', 'wide'))?.status).toBe('PLANNED');

    // The zombie read PLANNED, then paused (a GC pause, a frozen VM) while the live splitter and verifier finished.
    let resume!: () => void;
    const paused = new Promise<void>((r) => (resume = r));
    let reads = 0;
    const zombieRepository: WideRowRepository = {
      ...repository,
      async get(namespace, partitionId) {
        const record = await repository.get(namespace, partitionId);
        if (reads++ === 0) await paused;
        return record;
      },
    };
    const zombie = copyPartition(task, { ...deps, repository: zombieRepository }, context(skewedClock(10 * MINUTE)));
    await waitFor('the zombie to read PLANNED', async () => reads > 0);
    await copyPartition(task, deps, live);
    await verifySplit(task, deps, live);
    const completed = (await repository.get('follows_in', 'wide')) as WideRowRecord;
    expect(completed.status).toBe('COMPLETED');

    resume();
    await zombie;
    const after = (await repository.get('follows_in', 'wide')) as WideRowRecord;
    expect(after.status).toBe('COMPLETED');
    expect(after.verification).toEqual(completed.verification);
  });
});
