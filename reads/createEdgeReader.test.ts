import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultEdgestreamConfig } from '../schemas/config/edgestreamConfig.ts';
import type { EdgeMutation } from '../schemas/generated/EdgeMutation.ts';
import { StoreError } from '../sinks/store/index.ts';
import { applyLww, modelKey } from '../test/support/model/applyLww.ts';
import { followsMutation } from '../test/support/model/followsMutation.ts';
import { createFanOutHarness } from '../test/support/model/createFanOutHarness.ts';
import { createEdgeReader, type EdgeReaderOptions } from './createEdgeReader.ts';
import { MAX_SCAN_ROUNDS, MAX_SLACK_CELLS } from './scanNeighbours.ts';
import { createStorePartitionReader } from './createStorePartitionReader.ts';
import type { PartitionReader } from './PartitionReader.ts';
import type { EdgeReader, Neighbour, NeighbourOrder, NeighbourPageOptions, TimeRangeOptions } from './EdgeReader.ts';
import { encodeNeighbourCursor } from './neighbourCursor.ts';
import type { ReadSample } from './ReadCounters.ts';
import { recordingPartitionReader } from './testing/recordingPartitionReader.ts';

const config = defaultEdgestreamConfig(); // edge types follows, likes

const event = followsMutation;
const add = (src: string, dst: string, time: bigint, more: Partial<EdgeMutation> = {}) => event('ADD_EDGE', src, dst, time, more);
const remove = (src: string, dst: string, time: bigint, more: Partial<EdgeMutation> = {}) => event('REMOVE_EDGE', src, dst, time, more);

/**
 * The real fan-out processor over a memory store, the events applied in order, and a reader on it.
 * The index entries are unverified (as a repair writes them, or a store from before exact entries),
 * so pages validate them; `exactHarness` and the "exact index" tests cover exact entries.
 */
async function setup(events: readonly EdgeMutation[], options: Partial<EdgeReaderOptions> = {}) {
  const harness = createFanOutHarness(config, { soleWriter: false });
  for (const e of events) await harness.process(e);
  const recording = recordingPartitionReader(createStorePartitionReader(harness.store));
  const samples: { namespace: string; id: string; sample: ReadSample }[] = [];
  const reader = createEdgeReader({
    partitions: recording.reader,
    config,
    counters: { record: (namespace, id, sample) => void samples.push({ namespace, id, sample }) },
    ...options,
  });
  return { harness, reader, recording, samples };
}

/** Every neighbour, following cursors page by page; `limits` cycles through the page sizes asked for. */
async function allPages(read: (o: NeighbourPageOptions) => Promise<{ items: readonly Neighbour[]; cursor?: string }>, limits: readonly number[], order?: 'newest' | 'peer') {
  const items: Neighbour[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const limit = limits[pages++ % limits.length]!;
    const page = await read({ limit, ...(cursor === undefined ? {} : { cursor }), ...(order === undefined ? {} : { order }) });
    expect(page.items.length).toBeLessThanOrEqual(limit);
    items.push(...page.items);
    cursor = page.cursor;
  } while (cursor !== undefined);
  return items;
}

describe('createEdgeReader: edge', () => {
  it('returns the forward link with state, time and mutation id, or undefined when no op touched it', async () => {
    const { reader } = await setup([add('a', 'b', 10n, { mutation_id: 'x1' }), add('a', 'c', 11n), remove('a', 'c', 12n, { mutation_id: 'x3' })]);
    expect(await reader.edge('follows', 'a', 'b')).toEqual({ state: 'ACTIVE', time: 10n, mutationId: 'x1' });
    expect(await reader.edge('follows', 'a', 'c')).toEqual({ state: 'REMOVED', time: 12n, mutationId: 'x3' });
    expect(await reader.edge('follows', 'b', 'a')).toBeUndefined();
    expect(await reader.edge('likes', 'a', 'b')).toBeUndefined();
  });
});

describe('createEdgeReader: neighbour pages', () => {
  it('newest order skips removed links and the superseded index entries a re-add leaves behind', async () => {
    const { reader } = await setup([
      add('a', 'b', 10n),
      add('a', 'c', 20n),
      add('a', 'd', 30n),
      add('a', 'b', 40n), // re-add: the entry at 10 stays in the index
      remove('a', 'c', 50n),
      add('a', 'e', 35n),
    ]);
    const page = await reader.out('follows', 'a', { limit: 10 });
    expect(page.items.map((n) => [n.peer, n.time])).toEqual([['b', 40n], ['e', 35n], ['d', 30n]]);
    expect(page.cursor).toBeUndefined();
  });

  it('a remove that arrives before its add leaves a dead index entry, which is skipped', async () => {
    const { reader } = await setup([remove('a', 'b', 20n), add('a', 'b', 10n), add('a', 'c', 5n)]);
    expect((await reader.out('follows', 'a', { limit: 5 })).items.map((n) => n.peer)).toEqual(['c']);
  });

  it('peer order walks the link namespace by peer id and keeps ACTIVE links', async () => {
    const { reader } = await setup([add('a', 'z', 1n), add('a', 'b', 2n), add('a', 'm', 3n), remove('a', 'm', 4n)]);
    const page = await reader.out('follows', 'a', { limit: 10, order: 'peer' });
    expect(page.items.map((n) => n.peer)).toEqual(['b', 'z']);
  });

  it('in() reads the reverse direction', async () => {
    const { reader } = await setup([add('x', 'hub', 1n), add('y', 'hub', 3n), add('z', 'hub', 2n), add('hub', 'q', 4n)]);
    expect((await reader.in('follows', 'hub', { limit: 10 })).items.map((n) => n.peer)).toEqual(['y', 'z', 'x']);
    expect((await reader.out('follows', 'hub', { limit: 10 })).items.map((n) => n.peer)).toEqual(['q']);
  });

  it('pages with cursors: each neighbour once, newest first, and no cursor on the last page', async () => {
    const events = Array.from({ length: 25 }, (_, i) => add('a', `p${i}`, BigInt(100 + i)));
    const { reader } = await setup(events);
    const first = await reader.out('follows', 'a', { limit: 10 });
    expect(first.items).toHaveLength(10);
    expect(first.cursor).toBeDefined();
    const all = await allPages((o) => reader.out('follows', 'a', o), [10]);
    expect(all.map((n) => n.peer)).toEqual(Array.from({ length: 25 }, (_, i) => `p${24 - i}`));
  });

  it('asks the PartitionReader for keys after the cursor, never for a page state, and stops when the limit is reached', async () => {
    const events = Array.from({ length: 10 }, (_, i) => add('a', `p${i}`, BigInt(100 + i)));
    const { reader, recording } = await setup(events);
    const first = await reader.out('follows', 'a', { limit: 3, order: 'peer' });
    expect(recording.calls).toEqual([{ kind: 'page', namespace: 'follows_out', id: 'a', limit: 4 }]); // a quarter more than wanted
    recording.reset();
    await reader.out('follows', 'a', { limit: 3, cursor: first.cursor! });
    expect(recording.calls).toEqual([{ kind: 'page', namespace: 'follows_out', id: 'a', limit: 4, after: new TextEncoder().encode('p2') }]);
  });

  it('over-fetches after dead cells so a run of them costs few round trips', async () => {
    const events = [add('a', 'live', 1n), ...Array.from({ length: 64 }, (_, i) => [add('a', `d${i}`, 10n + BigInt(i)), remove('a', `d${i}`, 1_000n)]).flat()];
    const { reader, recording } = await setup(events);
    const page = await reader.out('follows', 'a', { limit: 1, order: 'peer' });
    expect(page.items.map((n) => n.peer)).toEqual(['live']);
    expect(recording.calls.filter((c) => c.kind === 'page').length).toBeLessThanOrEqual(7); // 1+2+4+8+16+32+… ≥ 65 cells
  });

  it('validates a newest page with one multi-key read of the link partition: two queries, one per distinct peer key', async () => {
    const events = Array.from({ length: 40 }, (_, i) => add('a', `p${i % 20}`, BigInt(100 + i))); // every peer re-added once
    const { reader, recording } = await setup(events);
    const page = await reader.out('follows', 'a', { limit: 50 });
    expect(page.items.map((n) => n.peer)).toEqual(Array.from({ length: 20 }, (_, i) => `p${19 - i}`));
    expect(recording.calls.map((c) => [c.kind, c.namespace, c.id])).toEqual([
      ['page', 'follows_out_recent', 'a'],
      ['getKeys', 'follows_out', 'a'],
    ]);
    expect(recording.calls[1]?.keys?.map((k) => Buffer.from(k).toString()).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `p${i}`).sort());
  });

  it('a newest page costs at most two queries while stale entries are under a quarter of it; a full scan in pages of 1000 with a fifth stale costs at most four per page and no per-row query', async () => {
    // 3000 links; 600 re-added later, their old entries left behind, spread evenly: 1 in 5 entries is stale.
    const events = [...Array.from({ length: 3_000 }, (_, i) => add('a', `p${i}`, BigInt(10 + i))), ...Array.from({ length: 600 }, (_, i) => add('a', `p${i * 5}`, 10_000n + BigInt(i)))];
    const { reader, recording, harness } = await setup(events);
    for (let i = 0; i < 600; i++) await harness.leaveIndexEntries(add('a', `p${i * 5}`, BigInt(10 + i * 5)));
    const first = await reader.out('follows', 'a', { limit: 50 });
    expect(first.items).toHaveLength(50);
    expect(recording.calls).toHaveLength(2);
    recording.reset();
    const all: Neighbour[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await reader.out('follows', 'a', { limit: 1_000, ...(cursor === undefined ? {} : { cursor }) });
      all.push(...page.items);
      cursor = page.cursor;
      pages++;
    } while (cursor !== undefined);
    expect(all).toHaveLength(3_000);
    expect(new Set(all.map((n) => n.peer)).size).toBe(3_000);
    expect(recording.calls.filter((c) => c.kind === 'get')).toEqual([]); // no per-row query
    // One slice and one getKeys per read; a second, small read per page tops up what a fifth stale left.
    expect(recording.calls.length).toBeLessThanOrEqual(4 * pages);
    const cellsAsked = recording.calls.reduce((n, c) => n + (c.kind === 'page' ? (c.limit ?? 0) : 0), 0);
    // Every entry about once, plus the last page's ask beyond the end; a quarter more per read asked 5 000.
    expect(cellsAsked).toBeLessThan(3_600 * 1.05 + 1_000 + MAX_SLACK_CELLS);
  });

  it('a full scan of a clean index in pages of 1000 asks for 1000 + MAX_SLACK_CELLS cells per page: two queries, no quarter read twice', async () => {
    const { reader, recording } = await setup(Array.from({ length: 3_000 }, (_, i) => add('a', `p${i}`, BigInt(10 + i))));
    const items = await allPages((o) => reader.out('follows', 'a', o), [1_000]);
    expect(items).toHaveLength(3_000);
    const pages = recording.calls.filter((c) => c.kind === 'page');
    expect(pages.map((c) => c.limit)).toEqual([1_000 + MAX_SLACK_CELLS, 1_000 + MAX_SLACK_CELLS, 1_000 + MAX_SLACK_CELLS]);
    expect(recording.calls).toHaveLength(2 * pages.length);
  });

  it('refills a short newest page a bounded number of times, and its cursor resumes where it stopped', async () => {
    // 1 live link, then 400 newer stale entries under REMOVED links.
    const adds = Array.from({ length: 400 }, (_, i) => add('a', `s${i}`, 100n + BigInt(i)));
    const harness = createFanOutHarness(config, { soleWriter: false });
    for (const e of [add('a', 'old', 1n), ...adds.map((a, i) => remove('a', `s${i}`, 1_000n + BigInt(i)))]) await harness.process(e);
    for (const a of adds) await harness.leaveIndexEntries(a);
    const recording = recordingPartitionReader(createStorePartitionReader(harness.store));
    const reader = createEdgeReader({ partitions: recording.reader, config, maxPageCells: 8 });
    const page = await reader.out('follows', 'a', { limit: 1 });
    expect(page.items).toEqual([]);
    expect(page.cursor).toBeDefined();
    expect(recording.calls.filter((c) => c.kind === 'page')).toHaveLength(MAX_SCAN_ROUNDS);
    expect((await allPages((o) => reader.out('follows', 'a', o), [1])).map((n) => n.peer)).toEqual(['old']);
  });

  it('derives a newest page from the link partition when the index read fails with read_failure: same items, same cursors', async () => {
    const events = [
      ...Array.from({ length: 30 }, (_, i) => add('a', `p${i}`, BigInt(10 + i))),
      ...Array.from({ length: 6 }, (_, i) => add('a', `p${i * 4}`, 100n + BigInt(i))), // re-adds: stale entries behind
      ...Array.from({ length: 10 }, (_, i) => remove('a', `p${i * 3}`, 200n + BigInt(i))),
    ];
    const { harness, reader: normal } = await setup(events);
    const plain = createStorePartitionReader(harness.store);
    const tombstoned = (code: 'read_failure' | 'timeout'): PartitionReader => ({
      ...plain,
      page: (namespace, id, query) => (namespace.endsWith('_recent') ? Promise.reject(new StoreError(code, 'slice: server failure during read query')) : plain.page(namespace, id, query)),
    });
    const samples: { namespace: string; sample: ReadSample }[] = [];
    const reader = createEdgeReader({ partitions: tombstoned('read_failure'), config, counters: { record: (namespace, _id, sample) => void samples.push({ namespace, sample }) } });
    for (const limits of [[1], [3, 7], [50]]) {
      const derived = await allPages((o) => reader.out('follows', 'a', o), limits);
      expect(derived).toEqual(await allPages((o) => normal.out('follows', 'a', o), limits));
      expect(derived).toHaveLength(20);
    }
    // The links read in its place count against the index partition: a tombstone-heavy index reads as wide.
    expect(samples.find((s) => s.namespace === 'follows_out_recent' && s.sample.rowsRead === 30)).toBeDefined();
    const failing = createEdgeReader({ partitions: tombstoned('timeout'), config });
    await expect(failing.out('follows', 'a', { limit: 5 })).rejects.toMatchObject({ code: 'timeout' });
  });

  it('every live link exactly once, newest first (or by peer), for random link ops in random arrival order and random page limits', async () => {
    const vertex = fc.constantFrom('hub', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9', 'p10', 'pé');
    const op = fc.record({
      op: fc.constantFrom<EdgeMutation['op']>('ADD_EDGE', 'ADD_EDGE', 'ADD_EDGE', 'REMOVE_EDGE'),
      src: fc.oneof(fc.constant('hub'), vertex),
      dst: fc.oneof(fc.constant('hub'), vertex),
      time: fc.bigInt({ min: 1n, max: 12n }),
      id: fc.constantFrom('m1', 'm2', 'm10', 'z'),
    });
    const scenario = fc.record({
      events: fc.array(op, { minLength: 1, maxLength: 60 }).chain((ops) => fc.shuffledSubarray(ops, { minLength: ops.length })),
      limits: fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 5 }),
      maxPageCells: fc.integer({ min: 1, max: 8 }),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ events, limits, maxPageCells }) => {
        const mutations = events.map((e) => event(e.op, e.src, e.dst, e.time, { mutation_id: e.id }));
        const { reader } = await setup(mutations, { maxPageCells });
        const model = applyLww(mutations);
        for (const direction of ['out', 'in'] as const) {
          const read = (o: NeighbourPageOptions) => (direction === 'out' ? reader.out('follows', 'hub', o) : reader.in('follows', 'hub', o));
          const expected = model.newestFirst.get(modelKey('follows', direction, 'hub')) ?? [];
          expect(await allPages(read, limits)).toEqual(expected);
          const byPeer = [...expected].sort((x, y) => Buffer.compare(Buffer.from(x.peer), Buffer.from(y.peer)));
          expect(await allPages(read, limits, 'peer')).toEqual(byPeer);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('createEdgeReader: an exact index', () => {
  it('a newest page of exact entries is one slice and no link read; a full scan is one slice per page', async () => {
    const harness = createFanOutHarness(config);
    for (let i = 0; i < 3_000; i++) await harness.process(add(`f${i}`, 'star', BigInt(10 + i), i % 7 === 0 ? { data: Buffer.from([i % 256]) } : {}));
    for (let i = 0; i < 300; i++) await harness.process(add(`f${i * 10}`, 'star', 10_000n + BigInt(i))); // re-follows: the old entries are deleted
    for (let i = 0; i < 300; i++) await harness.process(remove(`f${i * 10 + 1}`, 'star', 20_000n + BigInt(i)));
    const recording = recordingPartitionReader(createStorePartitionReader(harness.store));
    const reader = createEdgeReader({ partitions: recording.reader, config });
    const first = await reader.in('follows', 'star', { limit: 50 });
    expect(first.items.map((n) => n.peer)).toEqual(Array.from({ length: 50 }, (_, i) => `f${(299 - i) * 10}`));
    expect(recording.calls.map((c) => `${c.kind} ${c.namespace}`)).toEqual(['page follows_in_recent']);
    recording.reset();
    const all = await allPages((o) => reader.in('follows', 'star', o), [1_000]);
    expect(all).toHaveLength(2_700);
    expect(all.find((n) => n.peer === 'f7')?.data).toEqual(new Uint8Array([7]));
    expect(recording.calls.every((c) => c.kind === 'page' && c.namespace === 'follows_in_recent')).toBe(true);
    expect(recording.calls.length).toBeLessThanOrEqual(4);
  });

  it('exact and unverified entries mixed (each op as the sole writer or as a repair), random arrival order: every page equals the model', async () => {
    const peer = fc.constantFrom('p1', 'p2', 'p3', 'p4', 'p5', 'pé');
    const op = fc.record({
      op: fc.constantFrom<EdgeMutation['op']>('ADD_EDGE', 'ADD_EDGE', 'REMOVE_EDGE', 'HIDE_EDGE', 'UNHIDE_EDGE'),
      peer,
      time: fc.bigInt({ min: 1n, max: 12n }),
      edgeTime: fc.option(fc.bigInt({ min: 1n, max: 12n }), { nil: undefined }),
      id: fc.constantFrom('m1', 'm2', 'z'),
      soleWriter: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40 }), fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 3 }), async (ops, limits) => {
        const mutations = ops.map((o) => event(o.op, o.peer, 'hub', o.time, { mutation_id: o.id, ...(o.edgeTime === undefined || o.op === 'REMOVE_EDGE' ? {} : { edge_time: o.edgeTime }) }));
        const harness = createFanOutHarness(config);
        for (const [i, m] of mutations.entries()) await harness.process(m, { soleWriter: ops[i]?.soleWriter === true });
        const reader = createEdgeReader({ partitions: createStorePartitionReader(harness.store), config });
        const expected = applyLww(mutations).newestFirst.get(modelKey('follows', 'in', 'hub')) ?? [];
        expect(await allPages((o) => reader.in('follows', 'hub', o), limits)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('createEdgeReader: newest pages validated while their slice is in flight', () => {
  const followers = Array.from({ length: 30 }, (_, i) => add(`f${i}`, 'star', BigInt(100 + i)));
  const kinds = (calls: readonly { kind: string; namespace: string }[]) => calls.map((c) => `${c.kind} ${c.namespace}`);

  it('a page read twice with the same peers is read the third time as a slice and a getKeys in flight together, and stays correct when the page changes', async () => {
    const harness = createFanOutHarness(config, { soleWriter: false });
    for (const e of followers) await harness.process(e);
    const recording = recordingPartitionReader(createStorePartitionReader(harness.store), { delayMs: 5 });
    const guessed: boolean[] = [];
    const reader = createEdgeReader({ partitions: recording.reader, config, observer: { read: () => undefined, propertyCache: () => undefined, pageValidationGuess: (hit) => void guessed.push(hit) } });
    const peers = async () => (await reader.in('follows', 'star', { limit: 10 })).items.map((n) => n.peer);
    const newest10 = Array.from({ length: 10 }, (_, i) => `f${29 - i}`);

    expect(await peers()).toEqual(newest10);
    expect(await peers()).toEqual(newest10); // the second read finds the same peers: the position becomes stable
    expect(kinds(recording.calls)).toEqual(['page follows_in_recent', 'getKeys follows_in', 'page follows_in_recent', 'getKeys follows_in']);
    expect(recording.maxInFlight()).toBe(1);
    recording.reset();

    expect(await peers()).toEqual(newest10);
    expect(kinds(recording.calls).sort()).toEqual(['getKeys follows_in', 'page follows_in_recent']); // two queries, one round trip
    expect(recording.maxInFlight()).toBe(2);
    // Both earlier reads found every entry live: no slack for stale entries, one cell past the ten wanted.
    expect(recording.calls.find((c) => c.kind === 'page')?.limit).toBe(11);
    recording.reset();

    // The page changes: a new follower at the head, the oldest of the ten unfollowed.
    await harness.process(add('newcomer', 'star', 500n));
    await harness.process(remove('f20', 'star', 501n));
    expect(await peers()).toEqual(['newcomer', ...newest10.slice(0, 9)]);
    expect(kinds(recording.calls).sort()).toEqual(['getKeys follows_in', 'getKeys follows_in', 'page follows_in_recent']); // the newcomer's link read after the slice
    expect(recording.calls[2]?.keys?.map((k) => Buffer.from(k).toString())).toEqual(['newcomer']);
    recording.reset();

    expect(await peers()).toEqual(['newcomer', ...newest10.slice(0, 9)]);
    expect(kinds(recording.calls)).toEqual(['page follows_in_recent', 'getKeys follows_in']); // changed last time: no early read
    expect(recording.calls[0]?.limit).toBe(13); // and the slack is back
    expect(guessed).toEqual([false, false, true, false, false]);
  });

  it('a trimmed page that meets a stale entry tops itself up, and the next read asks for the slack again', async () => {
    const harness = createFanOutHarness(config, { soleWriter: false });
    for (const e of followers) await harness.process(e);
    const recording = recordingPartitionReader(createStorePartitionReader(harness.store));
    const reader = createEdgeReader({ partitions: recording.reader, config });
    const peers = async () => (await reader.in('follows', 'star', { limit: 10 })).items.map((n) => n.peer);
    for (let i = 0; i < 3; i++) await peers();
    // f29 and f28 re-added at older edge times, their entries left behind: the two newest entries (the head of the page) are now stale.
    await harness.process(add('f29', 'star', 900n, { edge_time: 1n }));
    await harness.process(add('f28', 'star', 901n, { edge_time: 2n }));
    for (const f of followers.filter((e) => e.src === 'f29' || e.src === 'f28')) await harness.leaveIndexEntries(f, 1_000n);
    recording.reset();
    const expected = Array.from({ length: 10 }, (_, i) => `f${27 - i}`);
    expect(await peers()).toEqual(expected);
    const asked = recording.calls.filter((c) => c.kind === 'page').map((c) => c.limit);
    expect(asked[0]).toBe(11); // trimmed: the last reads were clean
    expect(asked.length).toBe(2); // two stale entries in 11 cells: a second, small read
    recording.reset();
    expect(await peers()).toEqual(expected);
    expect(recording.calls.filter((c) => c.kind === 'page').map((c) => c.limit)).toEqual([13]);
  });

  it('pages of more than 256 peers are never guessed (a scan reads each page once)', async () => {
    const many = Array.from({ length: 400 }, (_, i) => add(`f${i}`, 'star', BigInt(100 + i)));
    const { reader, recording } = await setup(many);
    for (let i = 0; i < 3; i++) await reader.in('follows', 'star', { limit: 300 });
    expect(kinds(recording.calls)).toEqual(Array.from({ length: 3 }, () => ['page follows_in_recent', 'getKeys follows_in']).flat());
  });

  it('guesses never change an answer: pages read between random link ops in random order equal the pages of a reader without guesses', async () => {
    const peer = fc.constantFrom('p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8');
    const step = fc.oneof(
      fc.record({ kind: fc.constant('op' as const), op: fc.constantFrom<EdgeMutation['op']>('ADD_EDGE', 'ADD_EDGE', 'REMOVE_EDGE', 'HIDE_EDGE'), peer, time: fc.bigInt({ min: 1n, max: 30n }), edgeTime: fc.option(fc.bigInt({ min: 1n, max: 30n }), { nil: undefined }) }),
      fc.record({ kind: fc.constant('read' as const), limit: fc.integer({ min: 1, max: 6 }), pages: fc.integer({ min: 1, max: 3 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 50 }), async (steps) => {
        const harness = createFanOutHarness(config, { soleWriter: false });
        const partitions = createStorePartitionReader(harness.store);
        const guessing = createEdgeReader({ partitions, config });
        const plain = createEdgeReader({ partitions, config, validationGuesses: { maxEntries: 0, ttlMs: 0 } });
        let n = 0;
        for (const s of steps) {
          if (s.kind === 'op') {
            await harness.process(event(s.op, s.peer, 'hub', s.time, { mutation_id: `m${n++}`, ...(s.edgeTime === undefined ? {} : { edge_time: s.edgeTime }) }));
            continue;
          }
          let cursor: string | undefined;
          for (let p = 0; p < s.pages; p++) {
            const options = { limit: s.limit, ...(cursor === undefined ? {} : { cursor }) };
            const [got, want] = [await guessing.in('follows', 'hub', options), await plain.in('follows', 'hub', options)];
            expect(got).toEqual(want);
            cursor = got.cursor;
            if (cursor === undefined) break;
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('createEdgeReader: cursor misuse', () => {
  const events = Array.from({ length: 6 }, (_, i) => add('a', `p${i}`, BigInt(100 + i)));

  it.each<[string, (r: EdgeReader, cursor: string) => Promise<unknown>, RegExp]>([
    ['another direction', (r, c) => r.in('follows', 'a', { limit: 2, cursor: c }), /^cursor: belongs to another query \(follows out-neighbours of "a" in newest order\), not follows in-neighbours/],
    ['another vertex', (r, c) => r.out('follows', 'b', { limit: 2, cursor: c }), /^cursor: belongs to another query .* not follows out-neighbours of "b"/],
    ['another edge type', (r, c) => r.out('likes', 'a', { limit: 2, cursor: c }), /^cursor: belongs to another query/],
    ['another order, given explicitly', (r, c) => r.out('follows', 'a', { limit: 2, cursor: c, order: 'peer' }), /^cursor: belongs to another query .* in peer order/],
  ])('a cursor used with %s is refused naming the cursor', async (_, misuse, message) => {
    const { reader } = await setup(events);
    const { cursor } = await reader.out('follows', 'a', { limit: 2 });
    await expect(misuse(reader, cursor!)).rejects.toThrow(message);
    await expect(misuse(reader, cursor!)).rejects.toMatchObject({ code: 'invalid_argument', argument: 'cursor' });
  });

  it('a cursor without an order continues in the cursor\'s order', async () => {
    const { reader } = await setup(events);
    const first = await reader.out('follows', 'a', { limit: 2, order: 'peer' });
    expect((await reader.out('follows', 'a', { limit: 2, cursor: first.cursor! })).items.map((n) => n.peer)).toEqual(['p2', 'p3']);
  });

  it.each(['', 'not a cursor!', 'e30', Buffer.from('{"v":2}').toString('base64url'), Buffer.from('{"v":1,"o":"newest","d":"out","t":"follows","x":"a","k":"zz"}').toString('base64url')])(
    'refuses a damaged cursor %j naming it',
    async (bad) => {
      const { reader } = await setup(events);
      await expect(reader.out('follows', 'a', { limit: 2, cursor: bad })).rejects.toThrow(/^cursor: /);
    },
  );
});

const cursorOf = (order: NeighbourOrder, direction: 'out' | 'in') => encodeNeighbourCursor({ order, direction, type: 'follows', vertex: 'a', after: Uint8Array.of(1) });

describe('createEdgeReader: argument checks', () => {
  it.each<[string, (r: EdgeReader) => Promise<unknown>, string, RegExp]>([
    ['an unknown edge type', (r) => r.out('knows', 'a', { limit: 1 }), 'type', /unknown edge type 'knows' \(configured: follows, likes\)/],
    ['a limit of 0', (r) => r.out('follows', 'a', { limit: 0 }), 'limit', /must be an integer in \[1, 5000\], got 0/],
    ['a limit above 5000', (r) => r.in('follows', 'a', { limit: 5_001 }), 'limit', /\[1, 5000\]/],
    ['a fractional limit', (r) => r.out('follows', 'a', { limit: 1.5 }), 'limit', /got 1.5/],
    ['an unknown order', (r) => r.out('follows', 'a', { limit: 1, order: 'oldest' as 'peer' }), 'order', /'newest' or 'peer'/],
    ['an empty vertex', (r) => r.out('follows', '', { limit: 1 }), 'vertex', /must not be empty/],
    ['a vertex with U+0000', (r) => r.edge('follows', 'a\u0000b', 'c'), 'src', /U\+0000/],
    ['an oversized dst', (r) => r.edge('follows', 'a', 'x'.repeat(257)), 'dst', /more than the 256 allowed/],
    ['an empty key list', (r) => r.props('follows', 'a', 'b', []), 'keys', /at least one property/],
    ['a bad key', (r) => r.props('follows', 'a', 'b', ['ok', '']), 'keys[1]', /must not be empty/],
    ['a bad direction', (r) => r.count('follows', 'a', 'up' as 'out'), 'direction', /'out' or 'in'/],
    ['no hops', (r) => r.traverse('a', [], { perHopCap: 1, concurrency: 1 }), 'hops', /1 to 8 hops/],
    ['a hop of an unknown type', (r) => r.traverse('a', [{ type: 'follows', direction: 'out' }, { type: 'x', direction: 'in' }], { perHopCap: 1, concurrency: 1 }), 'hops[1].type', /unknown edge type 'x'/],
    ['a cap of 0', (r) => r.traverse('a', [{ type: 'follows', direction: 'out' }], { perHopCap: 0, concurrency: 1 }), 'perHopCap', /\[1, 100000\]/],
    ['a concurrency of 0', (r) => r.traverse('a', [{ type: 'follows', direction: 'out' }], { perHopCap: 1, concurrency: 0 }), 'concurrency', /\[1, 256\]/],
    ['a maxInFlight of 0', (r) => r.traverse('a', [{ type: 'follows', direction: 'out' }], { maxInFlight: 0 }), 'maxInFlight', /\[1, 1024\]/],
    ['a hop cap of 0', (r) => r.traverse('a', [{ type: 'follows', direction: 'out', cap: 0 }], {}), 'hops[0].cap', /\[1, 100000\]/],
    ['a row budget of 0', (r) => r.traverse('a', [{ type: 'follows', direction: 'out' }], { maxRows: 0 }), 'maxRows', /must be an integer in \[1, /],
    ['a query budget above the hard cap', (r) => r.traverse('a', [{ type: 'follows', direction: 'out' }], { maxQueries: 1e9 }), 'maxQueries', /must be an integer in \[1, /],
    ['a negative deadline', (r) => r.traverse('a', [{ type: 'follows', direction: 'out' }], { deadlineMs: -1 }), 'deadlineMs', /must be an integer in \[1, /],
    ['a signal that is not an AbortSignal', (r) => r.traverse('a', [{ type: 'follows', direction: 'out' }], { signal: {} as AbortSignal }), 'signal', /must be an AbortSignal/],
    ['a page with a row budget of 0', (r) => r.out('follows', 'a', { limit: 1, maxRows: 0 }), 'maxRows', /must be an integer in \[1, /],
    ['a time range with low above high', (r) => r.timeRange('follows', 'a', 'out', { limit: 1, low: 20n, high: 10n }), 'low', /must be at most high \(10\), got 20/],
    ['a negative high', (r) => r.timeRange('follows', 'a', 'in', { limit: 1, high: -1n }), 'high', /must be a time in µs/],
    ['a low that is not a bigint', (r) => r.timeRange('follows', 'a', 'out', { limit: 1, low: 5 as unknown as bigint }), 'low', /got 5/],
    ['a time range limit above 10000', (r) => r.timeRange('follows', 'a', 'out', { limit: 10_001 }), 'limit', /\[1, 10000\]/],
    ['a time range in a bad direction', (r) => r.timeRange('follows', 'a', 'up' as 'out', { limit: 1 }), 'direction', /'out' or 'in'/],
    ['a time range with a cursor of the other direction', (r) => r.timeRange('follows', 'a', 'in', { limit: 1, cursor: cursorOf('newest', 'out') }), 'cursor', /belongs to another query/],
    ['a time range with a cursor in peer order', (r) => r.timeRange('follows', 'a', 'out', { limit: 1, cursor: cursorOf('peer', 'out') }), 'cursor', /belongs to another query/],
    ['a multi-get of no edges', (r) => r.edges('follows', 'a', []), 'dsts', /1 to 128 vertices, got 0/],
    ['a multi-get of 129 edges', (r) => r.edges('follows', 'a', Array.from({ length: 129 }, (_, i) => `d${i}`)), 'dsts', /got 129/],
    ['a multi-get with a bad dst', (r) => r.edges('follows', 'a', ['b', '']), 'dsts[1]', /must not be empty/],
    ['a multi-get with an empty key list', (r) => r.edges('follows', 'a', ['b'], { keys: [] }), 'keys', /at least one property/],
  ])('%s is refused naming the argument, before any read', async (_, call, argument, message) => {
    const { reader, recording } = await setup([]);
    await expect(call(reader)).rejects.toMatchObject({ name: 'ReadArgumentError', argument });
    await expect(call(reader)).rejects.toThrow(message);
    expect(recording.calls).toEqual([]);
  });
});

describe('createEdgeReader: props', () => {
  const events = [
    add('a', 'b', 10n, { properties: { since: 2020n, weight: 0.5, note: 'hi' } }),
    event('SET_PROPERTIES', 'b', 'a', 11n, { properties: { muted: true, raw: Buffer.from([1, 2]) } }),
  ];

  it('without keys pages the whole bag of that direction: a→b and b→a of a directed type have their own', async () => {
    for (const maxPageCells of [1, 2, 100]) {
      const { reader } = await setup(events, { maxPageCells });
      expect(await reader.props('follows', 'a', 'b')).toEqual({ note: 'hi', since: 2020n, weight: 0.5 });
      expect(await reader.props('follows', 'b', 'a')).toEqual({ muted: true, raw: Buffer.from([1, 2]) });
      expect(await reader.props('likes', 'a', 'b')).toEqual({});
    }
  });

  it('with keys reads only the requested cells (key pushdown) and leaves absent ones out', async () => {
    const { reader, recording, samples } = await setup(events);
    expect(await reader.props('follows', 'a', 'b', ['since', 'missing', 'since'])).toEqual({ since: 2020n });
    expect(recording.calls.map((c) => [c.kind, c.namespace, c.id, c.keys?.map((k) => Buffer.from(k).toString())])).toEqual([
      ['getKeys', 'follows_props', 'a\u0000b', ['\u0000\u0001since', '\u0000\u0001missing']], // a→b: the forward bag of partition a␀b, one request
    ]);
    expect(samples).toEqual([{ namespace: 'follows_props', id: 'a\u0000b', sample: { bytesRead: 2 + 'since'.length + 9, rowsRead: 1, rowsReturned: 1 } }]);
    recording.calls.length = 0;
    expect(await reader.props('follows', 'b', 'a', ['raw'])).toEqual({ raw: Buffer.from([1, 2]) });
    expect(recording.calls.map((c) => [c.id, c.keys?.map((k) => Buffer.from(k).toString())])).toEqual([['a\u0000b', ['\u0000\u0002raw']]]);
  });

  it('serves requested keys, absent ones too, from the read-aside cache until the ttl passes', async () => {
    let now = 0;
    const { reader, recording, harness } = await setup(events, { clock: () => now, propsCache: { maxEntries: 100, ttlMs: 1_000 } });
    await reader.props('follows', 'a', 'b', ['since', 'later']);
    await harness.process(event('SET_PROPERTIES', 'a', 'b', 12n, { properties: { later: 'x' } }));
    expect(await reader.props('follows', 'a', 'b', ['since', 'later'])).toEqual({ since: 2020n }); // cached absence
    expect(recording.calls).toHaveLength(1);
    now = 1_001;
    expect(await reader.props('follows', 'a', 'b', ['since', 'later'])).toEqual({ since: 2020n, later: 'x' });
    expect(recording.calls).toHaveLength(2);
  });

  it('fresh: reads past the cache (a cached absence too) and refreshes it with what it read, in props and edges alike', async () => {
    const { reader, recording, harness } = await setup([...events, add('a', 'c', 10n, { properties: { since: 2021n } })], { clock: () => 0, propsCache: { maxEntries: 100, ttlMs: 1_000 } });
    await reader.props('follows', 'a', 'b', ['since', 'later']);
    await reader.edges('follows', 'a', ['c'], { keys: ['later'] });
    await harness.process(event('SET_PROPERTIES', 'a', 'b', 12n, { properties: { since: 2030n, later: 'x' } }));
    await harness.process(event('SET_PROPERTIES', 'a', 'c', 12n, { properties: { later: 'y' } }));
    expect(await reader.props('follows', 'a', 'b', ['since', 'later'])).toEqual({ since: 2020n }); // served from the cache
    expect(await reader.props('follows', 'a', 'b', ['since', 'later'], { fresh: true })).toEqual({ since: 2030n, later: 'x' });
    expect((await reader.edges('follows', 'a', ['c'], { keys: ['later'], fresh: true }))[0]?.props).toEqual({ later: 'y' });
    recording.calls.length = 0;
    expect(await reader.props('follows', 'a', 'b', ['since', 'later'])).toEqual({ since: 2030n, later: 'x' }); // refreshed
    expect((await reader.edges('follows', 'a', ['c'], { keys: ['later'] }))[0]?.props).toEqual({ later: 'y' });
    expect(recording.calls.map((c) => c.namespace)).toEqual(['follows_out']); // the multi-get's links; no property read
  });

  it('hands out fresh values on every hit, so a caller changing one cannot change the cache', async () => {
    const { reader } = await setup(events);
    const first = await reader.props('follows', 'b', 'a', ['raw']);
    (first['raw'] as Buffer)[0] = 99;
    expect(await reader.props('follows', 'b', 'a', ['raw'])).toEqual({ raw: Buffer.from([1, 2]) });
  });
});

describe('createEdgeReader: count', () => {
  it('reads the recounted degree, 0n when never counted', async () => {
    const { reader, harness } = await setup([add('a', 'b', 1n), add('a', 'c', 2n), add('d', 'a', 3n)]);
    expect(await reader.count('follows', 'a', 'out')).toBe(0n); // not recounted yet: counts lag
    await harness.recountDegrees();
    expect(await reader.count('follows', 'a', 'out')).toBe(2n);
    expect(await reader.count('follows', 'a', 'in')).toBe(1n);
    expect(await reader.count('likes', 'a', 'out')).toBe(0n);
  });
});

describe('createEdgeReader: read counters', () => {
  it('records every page and point read against the logical partition asked for', async () => {
    const { reader, samples } = await setup([add('a', 'b', 10n, { mutation_id: 'mm' }), add('a', 'c', 11n, { mutation_id: 'mm' }), remove('a', 'c', 12n, { mutation_id: 'mm' })]);
    await reader.out('follows', 'a', { limit: 5 });
    const recentKeyBytes = 8 + 1;
    const linkValueBytes = 11 + 2; // LinkValue v2 header (version, state, time, data length) + the id
    expect(samples).toEqual([
      // the validation reads of the index page: b is ACTIVE; c's entry was deleted by the remove
      { namespace: 'follows_out', id: 'a', sample: { bytesRead: 1 + linkValueBytes, rowsRead: 1, rowsReturned: 0 } },
      { namespace: 'follows_out_recent', id: 'a', sample: { bytesRead: recentKeyBytes + 2, rowsRead: 1, rowsReturned: 1 } },
    ]);
    samples.length = 0;
    await reader.edge('follows', 'a', 'zz');
    expect(samples).toEqual([{ namespace: 'follows_out', id: 'a', sample: { bytesRead: 0, rowsRead: 0, rowsReturned: 0 } }]);
  });
});

describe('createEdgeReader: read budgets', () => {
  it('a neighbour page over a run of superseded index entries stops at the row budget with a ReadLimitError', async () => {
    // 200 re-adds of one peer leave 199 dead index entries ahead of (newer than) nothing live
    const events = [add('a', 'live', 1n), ...Array.from({ length: 200 }, (_, i) => add('a', 'x', 10n + BigInt(i))), remove('a', 'x', 1_000n)];
    const { reader, recording, harness } = await setup(events, { maxPageCells: 20 });
    for (const e of events.slice(1, -1)) await harness.leaveIndexEntries(e, 5_000n);
    await expect(reader.out('follows', 'a', { limit: 1, maxRows: 50 })).rejects.toMatchObject({ name: 'ReadLimitError', code: 'read_limit', reason: 'read_budget' });
    const pageRows = recording.calls.filter((c) => c.kind === 'page').reduce((sum, c) => sum + c.limit!, 0);
    expect(pageRows).toBeLessThanOrEqual(50);
    // without the budget the same read answers, following the cursors of short pages (a call stops after a bounded number of refills)
    let page = await reader.out('follows', 'a', { limit: 1 });
    while (page.items.length === 0 && page.cursor !== undefined) page = await reader.out('follows', 'a', { limit: 1, cursor: page.cursor });
    expect(page.items.map((n) => n.peer)).toEqual(['live']);
  });

  it('a property multi-get counts each key against the row budget of the config (one request must fit whole)', async () => {
    const small = { ...config, reads: { ...config.reads, maxRows: 3 } };
    const { reader } = await setup([add('a', 'b', 1n, { properties: { k1: 1n } })], { config: small });
    await expect(reader.props('follows', 'a', 'b', ['k1', 'k2', 'k3', 'k4'])).rejects.toMatchObject({ name: 'ReadLimitError', reason: 'read_budget' });
    expect(await reader.props('follows', 'a', 'b', ['k1', 'k2'])).toEqual({ k1: 1n });
  });
});


/** A time range of `hub` read to its end by cursor; `limits` cycles through the page sizes. */
async function rangeByCursor(reader: EdgeReader, direction: 'out' | 'in', range: Pick<TimeRangeOptions, 'low' | 'high'>, limits: readonly number[]) {
  return allPages((o) => reader.timeRange('follows', 'hub', direction, { ...range, limit: o.limit, ...(o.cursor === undefined ? {} : { cursor: o.cursor }) }), limits);
}

/** A time range of `hub` read to its end by time: each next page asks for `high` = the last item's time. */
async function rangeByTime(reader: EdgeReader, direction: 'out' | 'in', low: bigint | undefined, high: bigint | undefined, limit: number) {
  const items: Neighbour[] = [];
  let before = high;
  for (;;) {
    const page = await reader.timeRange('follows', 'hub', direction, { limit, ...(low === undefined ? {} : { low }), ...(before === undefined ? {} : { high: before }) });
    items.push(...page.items);
    if (page.cursor === undefined) return items;
    before = page.items.at(-1)!.time;
  }
}

describe('createEdgeReader: time ranges (assoc_time_range)', () => {
  const vertex = fc.constantFrom('hub', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'pé');
  const bound = fc.option(fc.bigInt({ min: 0n, max: 45n }), { nil: undefined });
  const range = fc.tuple(bound, bound).map(([a, b]): [bigint | undefined, bigint | undefined] => (a !== undefined && b !== undefined && a > b ? [b, a] : [a, b]));
  const inRange = (low: bigint | undefined, high: bigint | undefined) => (n: { time: bigint }) => (low === undefined || n.time >= low) && (high === undefined || n.time < high);

  it('exactly the ACTIVE links with time in [low, high), newest first, paged by cursor completely and without overlap (random ops, arrival orders, times with ties)', async () => {
    const op = fc.record({
      op: fc.constantFrom<EdgeMutation['op']>('ADD_EDGE', 'ADD_EDGE', 'ADD_EDGE', 'REMOVE_EDGE'),
      src: fc.oneof(fc.constant('hub'), vertex),
      dst: fc.oneof(fc.constant('hub'), vertex),
      time: fc.bigInt({ min: 1n, max: 40n }),
      id: fc.constantFrom('m1', 'm2', 'z'),
    });
    const scenario = fc.record({
      events: fc.array(op, { minLength: 1, maxLength: 60 }).chain((ops) => fc.shuffledSubarray(ops, { minLength: ops.length })),
      limits: fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 4 }),
      maxPageCells: fc.integer({ min: 1, max: 8 }),
      range,
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ events, limits, maxPageCells, range: [low, high] }) => {
        const mutations = events.map((e) => event(e.op, e.src, e.dst, e.time, { mutation_id: e.id }));
        const { reader } = await setup(mutations, { maxPageCells });
        const model = applyLww(mutations);
        for (const direction of ['out', 'in'] as const) {
          const expected = (model.newestFirst.get(modelKey('follows', direction, 'hub')) ?? []).filter(inRange(low, high));
          expect(await rangeByCursor(reader, direction, { ...(low === undefined ? {} : { low }), ...(high === undefined ? {} : { high }) }, limits)).toEqual(expected);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('paging by time (high = the last item\'s time) is complete and non-overlapping when edge times are distinct', async () => {
    const scenario = fc.record({
      links: fc.uniqueArray(fc.record({ peer: vertex, time: fc.bigInt({ min: 1n, max: 40n }), removed: fc.boolean(), out: fc.boolean() }), { selector: (l) => l.time, maxLength: 30 }),
      limit: fc.integer({ min: 1, max: 6 }),
      range,
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ links, limit, range: [low, high] }) => {
        const mutations = links.flatMap((l, i) => {
          const [src, dst] = l.out ? ['hub', `${l.peer}-${i}`] : [`${l.peer}-${i}`, 'hub'];
          return l.removed ? [add(src, dst, l.time), remove(src, dst, l.time + 100n)] : [add(src, dst, l.time)];
        });
        const { reader } = await setup(mutations);
        const model = applyLww(mutations);
        for (const direction of ['out', 'in'] as const) {
          const expected = (model.newestFirst.get(modelKey('follows', direction, 'hub')) ?? []).filter(inRange(low, high));
          expect(await rangeByTime(reader, direction, low, high, limit)).toEqual(expected);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a page is one slice bounded at both ends and one getKeys of the links: two queries, even for 10 000 neighbours', async () => {
    const events = Array.from({ length: 12_000 }, (_, i) => add('hub', `p${i}`, BigInt(1_000 + i)));
    const { reader, recording } = await setup(events);
    const page = await reader.timeRange('follows', 'hub', 'out', { low: 1_500n, high: 11_600n, limit: 10_000 });
    expect(page.items.map((n) => n.time)).toEqual(Array.from({ length: 10_000 }, (_, i) => 11_599n - BigInt(i)));
    expect(page.cursor).toBeDefined();
    expect(recording.calls.map((c) => [c.kind, c.namespace])).toEqual([
      ['page', 'follows_out_recent'],
      ['getKeys', 'follows_out'],
    ]);
    expect(recording.calls[0]?.after).toBeDefined();
    expect(recording.calls[0]?.before).toBeDefined();
    recording.reset();
    const rest = await reader.timeRange('follows', 'hub', 'out', { low: 1_500n, high: 11_600n, limit: 10_000, cursor: page.cursor! });
    expect(rest.items.map((n) => n.time)).toEqual(Array.from({ length: 100 }, (_, i) => 1_599n - BigInt(i)));
    expect(rest.cursor).toBeUndefined();
    expect(recording.calls).toHaveLength(2); // the slice stops at low: nothing older is read
    expect(recording.calls[0]?.limit).toBeLessThanOrEqual(12_500);
  });

  it('"everything since t" (low only) stops at t, and an empty range reads nothing', async () => {
    const events = Array.from({ length: 50 }, (_, i) => add('hub', `p${i}`, BigInt(10 + i)));
    const { reader, recording, samples } = await setup(events);
    const since = await reader.timeRange('follows', 'hub', 'out', { low: 55n, limit: 100 });
    expect(since).toEqual({ items: [59n, 58n, 57n, 56n, 55n].map((t) => ({ peer: `p${t - 10n}`, time: t, mutationId: expect.any(String) })) });
    expect(samples.find((s) => s.namespace === 'follows_out_recent')?.sample.rowsRead).toBe(5);
    recording.reset();
    expect(await reader.timeRange('follows', 'hub', 'out', { low: 30n, high: 30n, limit: 5 })).toEqual({ items: [] });
    expect(recording.calls).toEqual([]);
  });

  it('within a budget: a range page past maxQueries throws ReadLimitError', async () => {
    const adds = Array.from({ length: 40 }, (_, i) => add('hub', `s${i}`, 100n + BigInt(i)));
    const { reader, harness } = await setup(adds.map((a, i) => remove('hub', `s${i}`, 1_000n + BigInt(i))), { maxPageCells: 4 });
    for (const a of adds) await harness.leaveIndexEntries(a);
    await expect(reader.timeRange('follows', 'hub', 'out', { limit: 3, maxQueries: 3 })).rejects.toMatchObject({ name: 'ReadLimitError' });
  });

  it('derives a range page from the link partition when the index read fails with read_failure: same items', async () => {
    const events = [...Array.from({ length: 30 }, (_, i) => add('hub', `p${i}`, BigInt(10 + i))), ...Array.from({ length: 8 }, (_, i) => remove('hub', `p${i * 3}`, 200n + BigInt(i)))];
    const { harness, reader: normal } = await setup(events);
    const plain = createStorePartitionReader(harness.store);
    const failing: PartitionReader = {
      ...plain,
      page: (namespace, id, query) => (namespace.endsWith('_recent') ? Promise.reject(new StoreError('read_failure', 'tombstones')) : plain.page(namespace, id, query)),
    };
    const reader = createEdgeReader({ partitions: failing, config });
    for (const [low, high] of [[15n, 33n], [0n, 12n], [25n, undefined]] as const) {
      const opts = { low, ...(high === undefined ? {} : { high }) };
      const expected = await rangeByCursor(normal, 'out', opts, [4]);
      expect(expected.length).toBeGreaterThan(0);
      expect(await rangeByCursor(reader, 'out', opts, [4])).toEqual(expected);
    }
  });
});

describe('createEdgeReader: multi-get of edges (assoc_get)', () => {
  it('equals per-edge point reads (link, and properties with key pushdown), absent edges undefined, REMOVED with its state', async () => {
    const peers = ['b', 'c', 'd', 'e', 'x', 'hub'];
    const op = fc.record({
      op: fc.constantFrom<EdgeMutation['op']>('ADD_EDGE', 'ADD_EDGE', 'REMOVE_EDGE', 'SET_PROPERTIES'),
      dst: fc.constantFrom(...peers),
      time: fc.bigInt({ min: 1n, max: 20n }),
      properties: fc.dictionary(fc.constantFrom('w', 'n', 'z'), fc.oneof(fc.integer().map(BigInt), fc.string({ maxLength: 3 })), { maxKeys: 2 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), fc.subarray(peers, { minLength: 1 }), fc.option(fc.subarray(['w', 'n', 'z'], { minLength: 1 }), { nil: undefined }), async (ops, dsts, keys) => {
        const { reader } = await setup(ops.map((o) => event(o.op, 'hub', o.dst, o.time, { properties: o.properties })));
        const got = await reader.edges('follows', 'hub', dsts, keys === undefined ? {} : { keys });
        const expected = await Promise.all(
          dsts.map(async (dst) => {
            const link = await reader.edge('follows', 'hub', dst);
            return keys === undefined || link === undefined ? { dst, link } : { dst, link, props: await reader.props('follows', 'hub', dst, keys) };
          }),
        );
        expect(got).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('reads 128 links with one getKeys of T_out[src], and the properties with one getKeys per edge bag', async () => {
    const dsts = Array.from({ length: 128 }, (_, i) => `d${i}`);
    const events = [...dsts.filter((_, i) => i % 2 === 0).map((d, i) => add('a', d, BigInt(10 + i), { properties: { w: BigInt(i) } })), remove('a', 'd2', 500n)];
    const { reader, recording } = await setup(events);
    const got = await reader.edges('follows', 'a', dsts);
    expect(got).toHaveLength(128);
    expect(got.filter((g) => g.link === undefined).map((g) => g.dst)).toEqual(dsts.filter((_, i) => i % 2 === 1));
    expect(got.find((g) => g.dst === 'd2')?.link?.state).toBe('REMOVED');
    expect(recording.calls.map((c) => [c.kind, c.namespace, c.id, c.keys?.length])).toEqual([['getKeys', 'follows_out', 'a', 128]]);
    recording.reset();
    const withProps = await reader.edges('follows', 'a', ['d0', 'd1', 'd4', 'd0'], { keys: ['w'] }); // a repeated dst is read once
    expect(withProps.map((g) => g.props)).toEqual([{ w: 0n }, undefined, { w: 2n }]);
    expect(recording.calls.map((c) => [c.kind, c.namespace, c.id])).toEqual([
      ['getKeys', 'follows_out', 'a'],
      ['getKeys', 'follows_props', 'a\u0000d0'],
      ['getKeys', 'follows_props', 'a\u0000d4'],
    ]);
  });
});
