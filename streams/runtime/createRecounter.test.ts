import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../sinks/memory/index.ts';
import { StoreError, type Cell, type TwoLevelMapStore } from '../../sinks/store/index.ts';
import { createRecounter, type RecountLogic } from './createRecounter.ts';
import { silentLogger } from './testing/silentLogger.ts';
import { createTestClock } from './testing/testClock.ts';

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
    expect(round).toEqual({ t0, marks: 2, recounted: 2, failed: 0 });
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
    const round = await createRecounter({ store: failing, logic, logger: silentLogger, clock: s.clock }).runOnce();
    expect(round).toMatchObject({ marks: 3, recounted: 1, failed: 1 });
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
