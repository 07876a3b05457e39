import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../sinks/memory/index.ts';
import { decorateStore, StoreError, type Cell, type TwoLevelMapStore } from '../../../sinks/store/index.ts';
import { createRecounter, type RecountLogic } from './createRecounter.ts';
import { recordingLogger, silentLogger } from '../testing/silentLogger.ts';
import { createTestClock } from '../testing/testClock.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);
const u64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return new Uint8Array(b);
};

/** A tiny projection: marks name a vertex; count the cells of r_links[v] whose value is [1]; store it in r_counts[v]['n']. */
const logic: RecountLogic = {
  markNamespace: 'r_marks',
  markPartitions: ['s0', 's1'],
  target(key) {
    const vertex = new TextDecoder().decode(key);
    if (vertex.startsWith('!')) return undefined;
    return { source: { namespace: 'r_links', id: vertex }, result: { namespace: 'r_counts', id: vertex, key: utf8('n') } };
  },
  counts: (cell: Cell) => cell.value[0] === 1,
  encodeCount: u64,
};

function setup() {
  const store = createMemoryStore({ namespaces: [{ name: 'r_marks', chunking: false }, { name: 'r_links', chunking: false }, { name: 'r_counts', chunking: false }] });
  const clock = createTestClock();
  const put = (namespace: string, id: string, key: string, value: Uint8Array, writeTime: bigint) =>
    store.mutateMany([{ namespace, id, writeTime, deletions: [], additions: [{ key: utf8(key), value }] }]);
  const mark = (shard: string, vertex: string, at: bigint) => put('r_marks', shard, vertex, new Uint8Array(0), at);
  const link = (vertex: string, peer: string, active: boolean) => put('r_links', vertex, peer, Uint8Array.of(active ? 1 : 2), 1n);
  const count = async (vertex: string) => {
    const cell = await store.namespace('r_counts').get(vertex, utf8('n'));
    return cell === undefined ? undefined : { n: Buffer.from(cell.value).readBigUInt64BE(), at: cell.writeTime };
  };
  const marks = async (shard: string) => (await store.namespace('r_marks').slice(shard, { limit: 100 })).cells.map((c) => new TextDecoder().decode(c.key));
  return { store, clock, mark, link, count, marks };
}

/** A store over `s` where every read of `hot`'s links finds one more follower (ingest while it is counted), and count writes of the ids `failsCount` names fail. */
function hotIngestStore(s: ReturnType<typeof setup>, failsCount: (id: string) => boolean): TwoLevelMapStore {
  let followers = 0;
  return decorateStore(s.store, {
    mutateMany: async (ms) => {
      if (ms.some((m) => m.namespace === 'r_counts' && failsCount(m.id))) throw new StoreError('unavailable', 'no replica');
      return s.store.mutateMany(ms);
    },
    namespace: (name) => {
      const ns = s.store.namespace(name);
      if (name !== 'r_links') return ns;
      return { ...ns, slice: async (id: string, q: Parameters<typeof ns.slice>[1]) => {
        if (id === 'hot') await s.link('hot', `p${++followers}`, true);
        return ns.slice(id, q);
      } };
    },
  });
}

describe('createRecounter', () => {
  it('recounts every marked target, writes the count at t0 and deletes the marks', async () => {
    const s = setup();
    await s.link('a', 'x', true);
    await s.link('a', 'y', true);
    await s.link('a', 'z', false);
    await s.link('b', 'x', true);
    await s.mark('s0', 'a', 5n);
    await s.mark('s1', 'b', 5n);
    const round = await createRecounter({ store: s.store, logic, logger: silentLogger, clock: s.clock }).runOnce();
    const t0 = s.clock.nowMicros();
    expect(round).toEqual({ t0, marks: 2, recounted: 2, failed: 0, unsettled: 0, held: 0, rowsRead: 12, phasesMs: { take: 0, count: 0, deleteMarks: 0 } });
    expect(await s.count('a')).toEqual({ n: 2n, at: t0 });
    expect(await s.count('b')).toEqual({ n: 1n, at: t0 });
    expect([...(await s.marks('s0')), ...(await s.marks('s1'))]).toEqual([]);
  });

  it('deletes each mark at the write time it was read with: a mark rewritten during the round survives, a future-stamped one does not linger', async () => {
    const s = setup();
    const t0 = s.clock.nowMicros();
    await s.mark('s0', 'a', t0 - 10n);
    await s.mark('s0', 'b', t0 + 600_000_000n); // stamped by a writer whose clock is 10 minutes ahead
    await s.mark('s0', 'c', t0 - 10n);
    // While `c` is being counted, a writer (any clock ahead of the first stamp) marks it again.
    const racing: TwoLevelMapStore = {
      ...s.store,
      namespace: (name) => {
        const ns = s.store.namespace(name);
        if (name !== 'r_links') return ns;
        return { ...ns, slice: async (id, q) => ((id === 'c' ? await s.mark('s0', 'c', t0 - 5n) : undefined, ns.slice(id, q))) };
      },
    };
    await createRecounter({ store: racing, logic, logger: silentLogger, clock: s.clock }).runOnce();
    expect(await s.marks('s0')).toEqual(['c']);
  });

  it('writes a count after the one it replaces, even when this instance\'s clock is behind that count\'s stamp', async () => {
    const s = setup();
    await s.link('a', 'x', true);
    await s.mark('s0', 'a', 1n);
    const ahead = createTestClock({ startMs: s.clock.nowMs() + 600_000 });
    await createRecounter({ store: s.store, logic, logger: silentLogger, clock: ahead }).runOnce();
    expect(await s.count('a')).toEqual({ n: 1n, at: ahead.nowMicros() });
    await s.link('a', 'y', true);
    await s.mark('s0', 'a', 2n);
    await createRecounter({ store: s.store, logic, logger: silentLogger, clock: s.clock }).runOnce();
    expect(await s.count('a')).toEqual({ n: 2n, at: ahead.nowMicros() + 1n });
  });

  it('counts a target once for all its marks', async () => {
    const s = setup();
    await s.link('a', 'x', true);
    await s.mark('s0', 'a', 1n);
    await s.mark('s1', 'a', 1n);
    const round = await createRecounter({ store: s.store, logic, logger: silentLogger, clock: s.clock }).runOnce();
    expect(round).toMatchObject({ marks: 2, recounted: 1, failed: 0 });
    expect([...(await s.marks('s0')), ...(await s.marks('s1'))]).toEqual([]);
  });

  it('counts and deletes 200 000 marks of one target in one round (no call with one argument per mark)', { timeout: 60_000 }, async () => {
    const s = setup();
    // Marks `vertex#n`: many cells naming one target (a celebrity's backlog, taken whole by a sweep).
    const many: RecountLogic = { ...logic, target: (key) => logic.target(utf8(new TextDecoder().decode(key).split('#')[0] as string)) };
    await s.link('star', 'x', true);
    const N = 200_000;
    await s.store.mutateMany([{ namespace: 'r_marks', id: 's0', writeTime: 1n, deletions: [], additions: Array.from({ length: N }, (_, i) => ({ key: utf8(`star#${i}`), value: new Uint8Array(0) })) }]);
    const round = await createRecounter({ store: s.store, logic: many, logger: silentLogger, clock: s.clock, marksPerRound: N }).runOnce();
    expect(round).toMatchObject({ marks: N, recounted: 1, failed: 0 });
    expect(await s.count('star')).toMatchObject({ n: 1n });
    expect(await s.marks('s0')).toEqual([]);
  });

  it('starts each round at the next mark partition, so a backlog in the first cannot starve the others', async () => {
    const s = setup();
    for (const v of ['a', 'b', 'c']) await s.mark('s0', v, 1n);
    await s.mark('s1', 'z', 1n);
    const recounter = createRecounter({ store: s.store, logic, logger: silentLogger, clock: s.clock, marksPerRound: 1 });
    await recounter.runOnce();
    await recounter.runOnce();
    expect(await s.marks('s0')).toEqual(['b', 'c']);
    expect(await s.marks('s1')).toEqual([]);
  });

  it('takes a partition round and round: the next take starts after the last mark taken (past the tombstones of the marks before it), then wraps to marks written in front', async () => {
    const s = setup();
    const one: RecountLogic = { ...logic, markPartitions: ['s0'] };
    for (const v of ['a', 'b', 'c', 'd', 'e']) await s.mark('s0', v, 1n);
    const slices: string[] = [];
    const store = decorateStore(s.store, {
      namespace: (name) => {
        const ns = s.store.namespace(name);
        if (name !== 'r_marks') return ns;
        return { ...ns, slice: async (id: string, q: Parameters<typeof ns.slice>[1]) => {
          slices.push(`${q.start === undefined ? '' : new TextDecoder().decode(q.start).replace('\u0000', '+')}..${q.end === undefined ? '' : new TextDecoder().decode(q.end).replace('\u0000', '+')}`);
          return ns.slice(id, q);
        } };
      },
    });
    const recounter = createRecounter({ store, logic: one, logger: silentLogger, clock: s.clock, marksPerRound: 2 });
    await recounter.runOnce();
    expect(await s.marks('s0')).toEqual(['c', 'd', 'e']);
    await s.mark('s0', 'a2', 2n);
    await recounter.runOnce();
    expect(await s.marks('s0')).toEqual(['a2', 'e']);
    // From after d to the end (e), then from the front up to d (a2): the partition was read round once.
    await recounter.runOnce();
    expect(await s.marks('s0')).toEqual([]);
    expect(slices).toEqual(['..', 'b+..', 'd+..', '..d+']);
    // Read to the end: the next take starts at the front again.
    await s.mark('s0', 'a', 3n);
    await recounter.runOnce();
    expect(slices.at(-1)).toBe('..');
    expect(await s.marks('s0')).toEqual([]);
  });

  it('recounts only the mark partitions its owner assigns to it', async () => {
    const s = setup();
    await s.mark('s0', 'a', 1n);
    await s.mark('s1', 'b', 1n);
    const round = await createRecounter({ store: s.store, logic, logger: silentLogger, clock: s.clock, owner: { owns: (p) => p === 's1' } }).runOnce();
    expect(round).toMatchObject({ marks: 1, recounted: 1 });
    expect(await s.marks('s0')).toEqual(['a']);
    expect(await s.marks('s1')).toEqual([]);
  });

  it('pages through a large partition', async () => {
    const s = setup();
    for (let i = 0; i < 2_500; i++) await s.link('big', `p${String(i).padStart(5, '0')}`, i % 5 !== 0);
    await s.mark('s0', 'big', 1n);
    await createRecounter({ store: s.store, logic, logger: silentLogger, clock: s.clock, pageSize: 1_000 }).runOnce();
    expect((await s.count('big'))?.n).toBe(2_000n);
  });

  it('keeps the mark of a recount that failed, and deletes a malformed mark without counting', async () => {
    const s = setup();
    await s.mark('s0', 'flaky', 1n);
    await s.mark('s0', 'fine', 1n);
    await s.mark('s1', '!malformed', 1n);
    const failing: TwoLevelMapStore = {
      ...s.store,
      mutateMany: (ms) => s.store.mutateMany(ms),
      namespace: (name) => {
        const ns = s.store.namespace(name);
        return name === 'r_links' ? { ...ns, slice: async (id, q) => (id === 'flaky' ? Promise.reject(new StoreError('timeout', 'slow')) : ns.slice(id, q)) } : ns;
      },
    };
    const recounter = createRecounter({ store: failing, logic, logger: silentLogger, clock: s.clock });
    const round = await recounter.runOnce();
    expect(round).toMatchObject({ marks: 3, recounted: 1, failed: 1 });
    expect(recounter.stats()).toEqual({ rounds: 1, failedRounds: 0, recounted: 1, failed: 1, unsettled: 0, lastRoundMarks: 3, strandedIntents: 0 });
    expect(await s.marks('s0')).toEqual(['flaky']);
    expect(await s.marks('s1')).toEqual([]);
    expect(await s.count('fine')).toMatchObject({ n: 0n });
  });

  it('runs rounds every interval until stopped', async () => {
    const s = setup();
    const clock = createTestClock({ autoAdvance: false });
    const recounter = createRecounter({ store: s.store, logic, logger: silentLogger, clock, intervalMs: 1_000 });
    recounter.start();
    await s.mark('s0', 'a', clock.nowMicros() + 1n); // after the first round's t0: survives it
    await clock.advance(1_000);
    await clock.advance(1_000);
    expect(await s.marks('s0')).toEqual([]);
    expect(await s.count('a')).toMatchObject({ n: 0n });
    const stopped = recounter.stop();
    await clock.advance(1_000);
    await stopped;
  });
});

describe('createRecounter logging', () => {
  it('a target written to while it is counted is logged at info (counted next round), a failing store at warn', async () => {
    const s = setup();
    await s.link('hot', 'p0', true);
    await s.link('cold', 'x', true);
    await s.mark('s0', 'hot', 5n);
    await s.mark('s1', 'cold', 5n);
    // Every read of hot's links finds one more follower (ingest while it is counted); every write of cold's count fails.
    const store = hotIngestStore(s, (id) => id === 'cold');
    const { logger, lines } = recordingLogger();
    const round = await createRecounter({ store, logic, logger, clock: s.clock }).runOnce();
    expect(round).toMatchObject({ marks: 2, recounted: 0, failed: 2, unsettled: 1 });
    const byMsg = (msg: string) => lines.filter((l) => l['msg'] === msg).map((l) => ({ level: l['level'], mark: l['mark'] }));
    expect(byMsg('count still changing; marks kept for the next round')).toEqual([{ level: 30, mark: 's0/686f74' }]); // 'hot'
    expect(byMsg('recount failed; marks kept for the next round')).toEqual([{ level: 40, mark: 's1/636f6c64' }]); // 'cold'
    expect([...(await s.marks('s0')), ...(await s.marks('s1'))].sort()).toEqual(['cold', 'hot']);
  });
});

describe('createRecounter backlog', () => {
  it('starts the next round at once after a full one, so a backlog drains without waiting an interval per round', async () => {
    const s = setup();
    const clock = createTestClock({ autoAdvance: false });
    for (const v of ['a', 'b', 'c', 'd', 'e']) await s.mark('s0', v, clock.nowMicros() - 1n);
    const { logger, lines } = recordingLogger();
    const recounter = createRecounter({ store: s.store, logic, logger, clock, intervalMs: 60_000, marksPerRound: 2 });
    recounter.start();
    for (let i = 0; i < 200 && recounter.stats().rounds < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(recounter.stats()).toMatchObject({ rounds: 3, lastRoundMarks: 1 });
    expect(await s.marks('s0')).toEqual([]);
    expect(await s.count('e')).toMatchObject({ n: 0n });
    await clock.advance(60_000); // one empty round, logged because the one before took marks; the next is not
    await clock.advance(60_000);
    const stopped = recounter.stop();
    await clock.advance(60_000);
    await stopped;
    expect(lines.filter((l) => l['msg'] === 'recount round').map((l) => l['marks'])).toEqual([2, 2, 1, 0]);
  });
});

describe('createRecounter prefetch', () => {
  it('under a backlog, takes the next round\'s marks from the other partitions while the round before is counted', async () => {
    const s = setup();
    const clock = createTestClock({ autoAdvance: false });
    for (const v of ['a', 'b']) await s.mark('s0', v, clock.nowMicros() - 1n);
    for (const v of ['c', 'd']) await s.mark('s1', v, clock.nowMicros() - 1n);
    for (const v of ['a', 'b', 'c', 'd']) await s.link(v, 'x', true);
    const markSlices: string[] = [];
    let releaseCounts: (() => void) | undefined;
    const countsHeld = new Promise<void>((resolve) => (releaseCounts = resolve));
    const store = decorateStore(s.store, {
      mutateMany: async (ms) => {
        if (ms.some((m) => m.namespace === 'r_counts')) await countsHeld; // the first round's counts wait until released
        return s.store.mutateMany(ms);
      },
      namespace: (name) => {
        const ns = s.store.namespace(name);
        if (name !== 'r_marks') return ns;
        return { ...ns, slice: async (id: string, q: Parameters<typeof ns.slice>[1]) => {
          markSlices.push(id);
          return ns.slice(id, q);
        } };
      },
    });
    const recounter = createRecounter({ store, logic, logger: silentLogger, clock, intervalMs: 60_000, marksPerRound: 2 });
    recounter.start();
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
    // Round 1 took s0's marks and is stuck counting them; round 2's take has already read s1, and not s0 again.
    expect(recounter.stats().rounds).toBe(0);
    expect(markSlices).toEqual(['s0', 's1']);
    (releaseCounts as () => void)();
    // Both full, so a third round follows at once and finds nothing (as without a prefetch).
    for (let i = 0; i < 200 && recounter.stats().rounds < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(recounter.stats()).toMatchObject({ rounds: 3, recounted: 4, failed: 0, lastRoundMarks: 0 });
    expect([...(await s.marks('s0')), ...(await s.marks('s1'))]).toEqual([]);
    for (const v of ['a', 'b', 'c', 'd']) expect(await s.count(v)).toMatchObject({ n: 1n });
    const stopped = recounter.stop();
    await clock.advance(60_000);
    await clock.advance(60_000);
    await stopped;
  });
});

describe('createRecounter backlog under ingest', () => {
  const roundsWithin = async (recounter: ReturnType<typeof createRecounter>, clock: ReturnType<typeof createTestClock>) => {
    recounter.start();
    for (let i = 0; i < 300; i++) await new Promise((resolve) => setImmediate(resolve));
    const rounds = recounter.stats().rounds;
    const stopped = recounter.stop();
    await clock.advance(60_000);
    await stopped;
    return rounds;
  };

  it('goes on at once after a full round whose only failures are counts still changing', async () => {
    const s = setup();
    const clock = createTestClock({ autoAdvance: false });
    await s.mark('s0', 'hot', clock.nowMicros() - 1n);
    for (const v of ['a', 'b', 'c', 'd', 'e']) await s.mark('s1', v, clock.nowMicros() - 1n);
    const { logger, lines } = recordingLogger();
    const recounter = createRecounter({ store: hotIngestStore(s, () => false), logic, logger, clock, intervalMs: 60_000, marksPerRound: 2 });
    // Before, the first round (hot and a) waited 60 s: nothing else was counted within the interval.
    expect(await roundsWithin(recounter, clock)).toBeGreaterThanOrEqual(4);
    const first = lines.find((l) => l['msg'] === 'recount round');
    expect(first).toMatchObject({ marks: 2, recounted: 1, failed: 1, unsettled: 1 });
    expect(recounter.stats().unsettled).toBeGreaterThanOrEqual(4); // hot, once per round
    expect(await s.marks('s1')).toEqual([]);
    expect(await s.marks('s0')).toEqual(['hot']);
  });

  it('waits an interval after a full round in which the store failed', async () => {
    const s = setup();
    const clock = createTestClock({ autoAdvance: false });
    await s.mark('s0', 'hot', clock.nowMicros() - 1n);
    for (const v of ['a', 'b', 'c', 'd', 'e']) await s.mark('s1', v, clock.nowMicros() - 1n);
    const recounter = createRecounter({ store: hotIngestStore(s, (id) => id !== 'hot'), logic, logger: silentLogger, clock, intervalMs: 60_000, marksPerRound: 2 });
    expect(await roundsWithin(recounter, clock)).toBe(1);
    expect(await s.marks('s1')).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

describe('createRecounter intents', () => {
  /** `v!n`: an intent for v, written before its change (n tells two apart). */
  const withIntents: RecountLogic = { ...logic, target: (key) => logic.target(utf8(new TextDecoder().decode(key).split('!')[0] as string)), isIntent: (key) => new TextDecoder().decode(key).includes('!') };

  it('holds an intent until intentHoldMs after this instance first read it, then counts it and deletes it', async () => {
    const s = setup();
    const clock = createTestClock({ autoAdvance: false });
    const recounter = createRecounter({ store: s.store, logic: withIntents, logger: silentLogger, clock, intentHoldMs: 10_000 });
    await s.mark('s0', 'a!1', 1n);
    expect(await recounter.runOnce()).toMatchObject({ marks: 1, held: 1, recounted: 0, failed: 0 });
    await s.link('a', 'x', true); // the change the intent announced lands after the first read of it
    await clock.advance(9_999);
    expect(await recounter.runOnce()).toMatchObject({ held: 1, recounted: 0 });
    expect(await s.count('a')).toBeUndefined();
    await clock.advance(1);
    expect(await recounter.runOnce()).toMatchObject({ held: 0, recounted: 1 });
    expect(await s.count('a')).toMatchObject({ n: 1n });
    expect(await s.marks('s0')).toEqual([]);
    expect(recounter.stats().strandedIntents).toBe(1);
  });

  it('counts the marks beside a held intent, and starts its hold again when it was rewritten or another instance reads it', async () => {
    const s = setup();
    const clock = createTestClock({ autoAdvance: false });
    const first = createRecounter({ store: s.store, logic: withIntents, logger: silentLogger, clock, intentHoldMs: 10_000 });
    await s.mark('s0', 'a!1', 1n);
    await s.mark('s0', 'b', 1n);
    expect(await first.runOnce()).toMatchObject({ marks: 2, held: 1, recounted: 1 });
    expect(await s.marks('s0')).toEqual(['a!1']);
    await clock.advance(10_000);
    // A new instance (the shard moved, or a restart) has not seen it yet.
    expect(await createRecounter({ store: s.store, logic: withIntents, logger: silentLogger, clock, intentHoldMs: 10_000 }).runOnce()).toMatchObject({ held: 1 });
    await s.mark('s0', 'a!1', 2n); // rewritten at another write time: another sighting
    expect(await first.runOnce()).toMatchObject({ held: 1 });
    await clock.advance(10_000);
    expect(await first.runOnce()).toMatchObject({ held: 0, recounted: 1 });
    expect(await s.marks('s0')).toEqual([]);
  });

  it('a full round of held intents waits an interval before the next (it would take the same ones)', async () => {
    const s = setup();
    const clock = createTestClock({ autoAdvance: false });
    for (const v of ['a!1', 'b!1', 'c!1']) await s.mark('s0', v, 1n);
    const recounter = createRecounter({ store: s.store, logic: withIntents, logger: silentLogger, clock, intervalMs: 60_000, marksPerRound: 2, intentHoldMs: 30_000 });
    recounter.start();
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(recounter.stats()).toMatchObject({ rounds: 1, lastRoundMarks: 2 });
    // Past the hold. Each take starts after the last mark taken: round 2 takes c!1 (first read: held) and a!1
    // (counted), round 3 b!1 (counted) and c!1 (held), round 4 only c!1 (held): rounds that counted go on at once.
    await clock.advance(60_000);
    for (let i = 0; i < 50 && recounter.stats().rounds < 4; i++) await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(recounter.stats()).toMatchObject({ rounds: 4, lastRoundMarks: 1 });
    const stopped = recounter.stop();
    await clock.advance(60_000);
    await stopped;
    expect(await s.marks('s0')).toEqual(['c!1']);
  });
});

describe('createRecounter under clock skew (property)', () => {
  /** Marks name `vertex#write`: one cell per mark write, as degree_dirty keys are (type ␀ dir ␀ vertex ␀ peer ␀ mutation id). */
  const perWrite: RecountLogic = { ...logic, target: (key) => logic.target(utf8(new TextDecoder().decode(key).split('#')[0] as string)) };
  /** Every store call of a recounter completes when fast-check's scheduler says so: any interleaving with the writers and the other instance. */
  const scheduled = (store: TwoLevelMapStore, s: fc.Scheduler): TwoLevelMapStore =>
    decorateStore(store, {
      mutateMany: s.scheduleFunction((ms: Parameters<TwoLevelMapStore['mutateMany']>[0]) => store.mutateMany(ms)),
      namespace: (name) => {
        const ns = store.namespace(name);
        return { ...ns, get: s.scheduleFunction((id: string, key: Uint8Array) => ns.get(id, key)), slice: s.scheduleFunction((id: string, q: Parameters<typeof ns.slice>[1]) => ns.slice(id, q)) };
      },
    });
  const MINUTE_US = 60_000_000n;
  const change = fc.record({ vertex: fc.constantFrom('a', 'b'), peer: fc.constantFrom('p', 'q', 'r'), active: fc.boolean(), writerSkewMinutes: fc.integer({ min: -10, max: 10 }) });

  it('two instances whose clocks differ by minutes converge to the exact counts, whatever the interleaving and the writers\' clocks', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.array(change, { minLength: 1, maxLength: 12 }), fc.tuple(fc.integer({ min: -20, max: 20 }), fc.integer({ min: -20, max: 20 })), async (sch, changes, offsets) => {
        const st = setup();
        const clocks = offsets.map((m) => createTestClock({ startMs: st.clock.nowMs() + m * 60_000 }));
        const instances = clocks.map((clock) => createRecounter({ store: scheduled(st.store, sch), logic: perWrite, logger: silentLogger, clock }));
        const truth = new Map<string, Map<string, boolean>>();
        const writers = (async () => {
          for (const [i, c] of changes.entries()) {
            await sch.schedule(Promise.resolve());
            // The link at its event time (i + 1), then, once it landed, its mark at the writer's skewed clock.
            await st.store.mutateMany([{ namespace: 'r_links', id: c.vertex, writeTime: BigInt(i + 1), deletions: [], additions: [{ key: utf8(c.peer), value: Uint8Array.of(c.active ? 1 : 2) }] }]);
            truth.set(c.vertex, (truth.get(c.vertex) ?? new Map()).set(c.peer, c.active));
            await st.mark('s0', `${c.vertex}#${i}`, st.clock.nowMicros() + BigInt(c.writerSkewMinutes) * MINUTE_US + BigInt(i));
          }
        })();
        const rounds = instances.map(async (r) => {
          for (let n = 0; n < 3; n++) await r.runOnce();
        });
        await sch.waitFor(Promise.all([writers, ...rounds]));
        // Quiet stream: the same two instances (unscheduled now) run until no mark is left.
        const quiet = clocks.map((clock) => createRecounter({ store: st.store, logic: perWrite, logger: silentLogger, clock }));
        for (let n = 0; n < 2; n++) for (const r of quiet) await r.runOnce();
        expect(await st.marks('s0')).toEqual([]);
        for (const [vertex, peers] of truth) expect((await st.count(vertex))?.n).toBe(BigInt([...peers.values()].filter(Boolean).length));
      }),
      { numRuns: 100 },
    );
  }, 60_000);
});

