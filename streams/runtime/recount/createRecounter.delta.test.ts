import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../sinks/memory/index.ts';
import { decorateStore, type Cell, type TwoLevelMapStore } from '../../../sinks/store/index.ts';
import { countRowsRead } from '../store/countRowsRead.ts';
import { createRecounter, type RecountLogic } from './createRecounter.ts';
import { silentLogger } from '../testing/silentLogger.ts';
import { createTestClock } from '../testing/testClock.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const u64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return new Uint8Array(b);
};
const BUCKETS = 64;
const bucket = (peer: string) => String([...peer].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % BUCKETS, 7)).padStart(2, '0');
const group = (peer: string) => bucket(peer)[0] as string;

/**
 * A tiny projection: a mark `vertex#peer#write` says r_links[vertex][peer] changed (`vertex` alone: unknown peer);
 * count the cells of r_links[v] whose value is [1] into r_counts[v]['n'], mirrored per peer in r_mirror[v].
 */
const logic: RecountLogic = {
  markNamespace: 'r_marks',
  markPartitions: ['s0', 's1'],
  target(key) {
    const vertex = text(key).split('#')[0] as string;
    return { source: { namespace: 'r_links', id: vertex }, result: { namespace: 'r_counts', id: vertex, key: utf8('n') } };
  },
  counts: (cell: Cell) => cell.value[0] === 1,
  encodeCount: u64,
  mirror: {
    namespace: 'r_mirror',
    changedKey: (key) => {
      const peer = text(key).split('#')[1];
      return peer === undefined ? undefined : utf8(peer);
    },
    flagKey: (_t, peer) => utf8(`f${bucket(text(peer))}#${text(peer)}`),
    bucketOf: (_t, peer) => ({
      countKey: utf8(`b${group(text(peer))}#${bucket(text(peer))}`),
      flagsPrefix: utf8(`f${bucket(text(peer))}#`),
      group: { countKey: utf8(`g${group(text(peer))}`), bucketsPrefix: utf8(`b${group(text(peer))}#`) },
    }),
    groupsPrefix: () => utf8('g'),
    markerKey: () => utf8('m'),
    decodeCount: (bytes) => Buffer.from(bytes).readBigUInt64BE(),
  },
};

function setup() {
  const store = createMemoryStore({
    namespaces: ['r_marks', 'r_links', 'r_counts', 'r_mirror'].map((name) => ({ name, chunking: false })),
  });
  const clock = createTestClock();
  const put = (namespace: string, id: string, key: string, value: Uint8Array, writeTime: bigint) =>
    store.mutateMany([{ namespace, id, writeTime, deletions: [], additions: [{ key: utf8(key), value }] }]);
  let writes = 0;
  /** A link write at `at`, then (once it landed) its mark, stamped by the writer's clock. */
  const link = async (vertex: string, peer: string, active: boolean, at: bigint, markAt = clock.nowMicros()) => {
    await put('r_links', vertex, peer, Uint8Array.of(active ? 1 : 2), at);
    await put('r_marks', 's0', `${vertex}#${peer}#${writes++}`, new Uint8Array(0), markAt);
  };
  const count = async (vertex: string) => {
    const cell = await store.namespace('r_counts').get(vertex, utf8('n'));
    return cell === undefined ? undefined : Buffer.from(cell.value).readBigUInt64BE();
  };
  const marks = async () => (await store.namespace('r_marks').slice('s0', { limit: 1_000 })).cells.length;
  return { store, clock, put, link, count, marks };
}

describe('createRecounter, delta mode (a hot vertex)', () => {
  it('reads rows in proportion to the changes since the last round, not to the degree', { timeout: 60_000 }, async () => {
    const s = setup();
    const DEGREE = 20_000;
    for (let i = 0; i < DEGREE; i++) await s.put('r_links', 'hot', `p${i}`, Uint8Array.of(1), 1n);
    await s.put('r_marks', 's0', 'hot', new Uint8Array(0), 1n); // a mark without a peer (written before marks named one)
    const counting = countRowsRead(s.store);
    const recounter = createRecounter({ store: counting.store, logic, logger: silentLogger, clock: s.clock, mode: 'delta' });
    await recounter.runOnce(); // the first round mirrors the vertex once
    expect(await s.count('hot')).toBe(BigInt(DEGREE));
    for (let round = 0; round < 3; round++) {
      await s.link('hot', `p${round}`, false, 10n + BigInt(round));
      await s.link('hot', `new${round}`, true, 10n + BigInt(round));
      await s.link('hot', `new${round}`, true, 10n + BigInt(round)); // a duplicate
      const before = counting.rows();
      await recounter.runOnce();
      // 2 changed peers: their link and mirror cells, 2 buckets (~DEGREE/64 flags, twice), their groups' bucket counts and the group counts.
      expect(counting.rows() - before).toBeLessThan(DEGREE / 8);
      expect(await s.count('hot')).toBe(BigInt(DEGREE));
    }
  });

  it('settles a backlog of marks on one vertex in one recount (a celebrity), not one recount of its whole mirror per marksPerRound marks', { timeout: 60_000 }, async () => {
    const s = setup();
    const swept: RecountLogic = { ...logic, markPrefix: (key) => utf8(`${text(key).split('#')[0] as string}#`) };
    const DEGREE = 4_000;
    for (let i = 0; i < DEGREE; i++) await s.put('r_links', 'hot', `p${i}`, Uint8Array.of(1), 1n);
    await s.link('hot', 'p0', true, 1n);
    const counting = countRowsRead(s.store);
    const options = { store: counting.store, logic: swept, logger: silentLogger, clock: s.clock, mode: 'delta' as const, pageSize: 100, marksPerRound: 300, sweepMinMarks: 100, directCountMaxCells: 3 };
    await createRecounter(options).runOnce(); // mirrors the vertex once
    // 2 000 new links of the hot vertex, their marks in both shards (as intents are), and one mark of another vertex.
    const NEW = 2_000;
    for (let i = 0; i < NEW; i++) {
      await s.put('r_links', 'hot', `n${i}`, Uint8Array.of(1), 2n);
      await s.put('r_marks', `s${i % 2}`, `hot#n${i}#${i}`, new Uint8Array(0), s.clock.nowMicros());
    }
    await s.link('cold', 'a', true, 2n);
    const before = counting.rows();
    const round = await createRecounter(options).runOnce();
    expect(round.marks).toBe(NEW + 1);
    expect(await s.count('hot')).toBe(BigInt(DEGREE + NEW));
    expect(await s.count('cold')).toBe(1n);
    for (const shard of ['s0', 's1']) expect((await s.store.namespace('r_marks').slice(shard, { limit: 10 })).cells).toEqual([]);
    // The marks, their links and flags, the flags of the whole mirror once (read twice to settle): not ⌈2 000 / 300⌉ times.
    expect(counting.rows() - before).toBeLessThan(2 * (DEGREE + NEW) + 3 * NEW);
  });

  it('a sweep takes at most sweepMaxMarks more marks; the rest wait for the next round', async () => {
    const s = setup();
    const swept: RecountLogic = { ...logic, markPrefix: (key) => utf8(`${text(key).split('#')[0] as string}#`) };
    for (let i = 0; i < 50; i++) await s.link('hot', `n${i}`, true, 2n);
    const recounter = createRecounter({ store: s.store, logic: swept, logger: silentLogger, clock: s.clock, mode: 'delta', pageSize: 5, marksPerRound: 10, sweepMinMarks: 5, sweepMaxMarks: 20, directCountMaxCells: 3 });
    expect((await recounter.runOnce()).marks).toBe(30);
    expect(await s.marks()).toBe(20);
    expect((await recounter.runOnce()).marks).toBe(20);
    expect(await s.count('hot')).toBe(50n);
  });

  it('a store closed under a round fails the round and leaves no read unawaited (an unhandled rejection ended the process)', async () => {
    const s = setup();
    await s.link('v', 'a', true, 1n);
    // The store closes once the round has taken its marks, as `edgestream run` closed it on SIGTERM with a round in flight.
    const closing = decorateStore(s.store, {
      namespace: (name) => {
        const ns = s.store.namespace(name);
        if (name !== 'r_marks') return ns;
        return { ...ns, slice: async (id, q) => {
          const page = await ns.slice(id, q);
          if (id === 's1') await s.store.close(); // the last mark partition the round reads
          return page;
        } };
      },
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const recounter = createRecounter({ store: closing, logic, logger: silentLogger, clock: s.clock, mode: 'delta' });
      await expect(recounter.runOnce()).rejects.toMatchObject({ code: 'closed' });
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });

  it('refuses delta mode for a projection without a mirror', () => {
    const { mirror: _, ...plain } = logic;
    expect(() => createRecounter({ store: setup().store, logic: plain, logger: silentLogger, mode: 'delta' })).toThrow(/mode 'delta' needs a mirror/);
  });

  it('a full recount voids the mirror: the next delta round mirrors the vertex again and stays exact', async () => {
    const s = setup();
    for (const p of ['a', 'b', 'c']) await s.put('r_links', 'v', p, Uint8Array.of(1), 1n);
    await s.link('v', 'a', true, 2n);
    const delta = createRecounter({ store: s.store, logic, logger: silentLogger, clock: s.clock, mode: 'delta', directCountMaxCells: 0 });
    await delta.runOnce();
    expect(await s.count('v')).toBe(3n);
    // In full mode, b is removed: the full recounter counts it, the mirror does not see it.
    await s.link('v', 'b', false, 3n);
    await createRecounter({ store: s.store, logic, logger: silentLogger, clock: s.clock, mode: 'full' }).runOnce();
    expect(await s.count('v')).toBe(2n);
    expect(await s.store.namespace('r_mirror').get('v', utf8('m'))).toBeUndefined();
    await s.link('v', 'd', true, 4n);
    await delta.runOnce();
    expect(await s.count('v')).toBe(3n); // a, c, d: the stale flag of b was rewritten by the new full mirror
  });

  it('counts vertices with a handful of links from their links, never mirrored nor their mirror read, in three round trips per round however many; mirrors one once it outgrows them', async () => {
    const s = setup();
    // Round trips of the recount (not the marks' slices and deletions): calls that start while none is in flight.
    let inFlight = 0;
    let sequential = 0;
    let calls = 0;
    let mirrorCalls = 0;
    const traced = async <T>(namespace: string, call: () => Promise<T>): Promise<T> => {
      if (namespace === 'r_marks') return call();
      calls++;
      if (namespace === 'r_mirror') mirrorCalls++;
      if (inFlight++ === 0) sequential++;
      try {
        return await call();
      } finally {
        inFlight--;
      }
    };
    const tracing = decorateStore(s.store, {
      mutateMany: (ms) => traced(ms[0]?.namespace ?? '', () => s.store.mutateMany(ms)),
      namespace: (name) => {
        const ns = s.store.namespace(name);
        return {
          ...ns,
          get: (id, key) => traced(name, () => ns.get(id, key)),
          getKeys: (id, keys) => traced(name, () => ns.getKeys(id, keys)),
          getCells: (cells) => traced(name, () => ns.getCells(cells)),
          slice: (id, q) => traced(name, () => ns.slice(id, q)),
          sliceMany: (ids, q) => traced(name, () => ns.sliceMany(ids, q)),
          scanPrefix: (id, p, q) => traced(name, () => ns.scanPrefix(id, p, q)),
        };
      },
    });
    const recounter = createRecounter({ store: tracing, logic, logger: silentLogger, clock: s.clock, mode: 'delta', directCountMaxCells: 3 });
    await s.link('fresh', 'a', true, 1n);
    await recounter.runOnce(); // the mark slice, then the recount
    sequential = 0;
    await s.link('fresh', 'b', true, 2n);
    await recounter.runOnce();
    expect(await s.count('fresh')).toBe(2n);
    // Read the heads of the links and the counts at once; write the counts; read them back with the links.
    expect(sequential).toBe(3);
    // Fifty new vertices in one round: the same three round trips, five calls (the reads are multi-partition), and no
    // read of the mirror's markers (before: six calls, one of them the markers of all fifty).
    for (let v = 0; v < 50; v++) await s.link(`new${v}`, 'a', true, 2n);
    [sequential, calls, mirrorCalls] = [0, 0, 0];
    await recounter.runOnce();
    expect([sequential, calls, mirrorCalls]).toEqual([3, 5, 0]);
    for (let v = 0; v < 50; v++) expect(await s.count(`new${v}`)).toBe(1n);
    expect((await s.store.namespace('r_mirror').slice('fresh', { limit: 10 })).cells).toEqual([]);
    for (const p of ['c', 'd']) await s.link('fresh', p, true, 3n);
    await recounter.runOnce();
    expect(await s.count('fresh')).toBe(4n);
    expect(await s.store.namespace('r_mirror').get('fresh', utf8('m'))).toBeDefined(); // mirrored: 4 links > 3
    await s.link('fresh', 'a', false, 4n);
    await recounter.runOnce();
    expect(await s.count('fresh')).toBe(3n);
  });

  it('a change that leaves a count as it was (a re-add of an ACTIVE link, LinkBench\'s UPDATE_LINK) costs the probe only: no count written, none read back', async () => {
    const s = setup();
    const counts: string[] = [];
    let reads = 0;
    const watched = decorateStore(s.store, {
      async mutateMany(ms) {
        for (const m of ms) if (m.namespace === 'r_counts' || (m.namespace === 'r_mirror' && m.additions.some((a) => text(a.key).startsWith('b')))) counts.push(`${m.namespace}/${m.id}`);
        await s.store.mutateMany(ms);
      },
      namespace: (name) => {
        const ns = s.store.namespace(name);
        return name === 'r_marks' ? ns : { ...ns, sliceMany: (ids, q) => (reads++, ns.sliceMany(ids, q)) };
      },
    });
    const recounter = createRecounter({ store: watched, logic, logger: silentLogger, clock: s.clock, mode: 'delta', directCountMaxCells: 3 });
    await s.link('small', 'a', true, 1n);
    for (const p of ['a', 'b', 'c', 'd']) await s.link('big', p, true, 1n); // 4 links > 3: mirrored
    await recounter.runOnce();
    expect([await s.count('small'), await s.count('big')]).toEqual([1n, 4n]);
    counts.length = 0;
    reads = 0;
    await s.link('small', 'a', true, 5n); // re-added with new data and time: still ACTIVE
    await s.link('big', 'b', true, 5n);
    await recounter.runOnce();
    expect([await s.count('small'), await s.count('big')]).toEqual([1n, 4n]);
    expect(counts).toEqual([]); // before: r_counts/small, and big's bucket, group and degree counts, each then read back
    expect(reads).toBe(1); // the probe's heads only: no read-back
    expect(await s.marks()).toBe(0);
  });

  it('counts exactly under duplicates, replays, out-of-order times and two instances with skewed clocks (property)', async () => {
    const MINUTE_US = 60_000_000n;
    const change = fc.record({
      vertex: fc.constantFrom('hot', 'hot', 'hot', 'cold'),
      peer: fc.constantFrom('p', 'q', 'r', 's', 't'),
      active: fc.boolean(),
      eventTime: fc.integer({ min: 1, max: 30 }),
      writerSkewMinutes: fc.integer({ min: -10, max: 10 }),
      replays: fc.integer({ min: 1, max: 2 }),
    });
    const scheduled = (store: TwoLevelMapStore, sch: fc.Scheduler): TwoLevelMapStore =>
      decorateStore(store, {
        mutateMany: sch.scheduleFunction((ms: Parameters<TwoLevelMapStore['mutateMany']>[0]) => store.mutateMany(ms)),
        namespace: (name) => {
          const ns = store.namespace(name);
          return {
            ...ns,
            get: sch.scheduleFunction((id: string, key: Uint8Array) => ns.get(id, key)),
            getKeys: sch.scheduleFunction((id: string, keys: readonly Uint8Array[]) => ns.getKeys(id, keys)),
            slice: sch.scheduleFunction((id: string, q: Parameters<typeof ns.slice>[1]) => ns.slice(id, q)),
            scanPrefix: sch.scheduleFunction((id: string, p: Uint8Array, q: Parameters<typeof ns.scanPrefix>[2]) => ns.scanPrefix(id, p, q)),
          };
        },
      });
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(change, { minLength: 1, maxLength: 14 }),
        fc.tuple(fc.integer({ min: -20, max: 20 }), fc.integer({ min: -20, max: 20 })),
        // 0: every vertex mirrored; 2: `hot` mirrored, `cold` counted directly until it outgrows 2 links; 128: both counted directly.
        fc.constantFrom(0, 2, 128),
        async (sch, changes, offsets, directCountMaxCells) => {
          const s = setup();
          // A pre-existing hot vertex: links written before marks named peers, counted by the full recounter.
          for (const p of ['a', 'b', 'c', 'p']) await s.put('r_links', 'hot', p, Uint8Array.of(1), 1n);
          await s.put('r_marks', 's0', 'hot', new Uint8Array(0), 1n);
          await createRecounter({ store: s.store, logic, logger: silentLogger, clock: s.clock, mode: 'full' }).runOnce();
          const clocks = offsets.map((m) => createTestClock({ startMs: s.clock.nowMs() + m * 60_000 }));
          const instances = clocks.map((clock) => createRecounter({ store: scheduled(s.store, sch), logic, logger: silentLogger, clock, mode: 'delta', directCountMaxCells }));
          const writers = (async () => {
            for (const c of changes) {
              for (let r = 0; r < c.replays; r++) {
                await sch.schedule(Promise.resolve());
                await s.link(c.vertex, c.peer, c.active, BigInt(c.eventTime), s.clock.nowMicros() + BigInt(c.writerSkewMinutes) * MINUTE_US);
              }
            }
          })();
          const rounds = instances.map(async (r) => {
            for (let n = 0; n < 3; n++) await r.runOnce();
          });
          await sch.waitFor(Promise.all([writers, ...rounds]));
          const quiet = clocks.map((clock) => createRecounter({ store: s.store, logic, logger: silentLogger, clock, mode: 'delta', directCountMaxCells }));
          for (let n = 0; n < 2; n++) for (const r of quiet) await r.runOnce();
          expect(await s.marks()).toBe(0);
          for (const vertex of ['hot', 'cold']) {
            const cells = (await s.store.namespace('r_links').slice(vertex, { limit: 100 })).cells;
            const truth = BigInt(cells.filter((c) => c.value[0] === 1).length);
            if (cells.length > 0) expect(await s.count(vertex)).toBe(truth);
          }
        },
      ),
      { numRuns: 100 },
    );
  }, 120_000);
});
