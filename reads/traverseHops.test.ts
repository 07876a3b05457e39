import { describe, expect, it } from 'vitest';
import { defaultEdgestreamConfig } from '../schemas/config/edgestreamConfig.ts';
import type { EdgeMutation } from '../schemas/generated/EdgeMutation.ts';
import { createFanOutHarness } from '../test/support/model/createFanOutHarness.ts';
import { createEdgeReader } from './createEdgeReader.ts';
import { createStorePartitionReader } from './createStorePartitionReader.ts';
import type { TraversalHop } from './EdgeReader.ts';
import type { PartitionReader } from './PartitionReader.ts';
import { recordingPartitionReader } from './testing/recordingPartitionReader.ts';
import { BATCH_IDS, BATCH_PAGE_CELLS, FIRST_WAVE_BATCHES } from './traverseHops.ts';

const config = defaultEdgestreamConfig();
let seq = 0;
const link = (op: 'ADD_EDGE' | 'REMOVE_EDGE', edgeType: string, src: string, dst: string): EdgeMutation => ({
  mutation_id: `t${++seq}`,
  op,
  edge_type: edgeType,
  src,
  dst,
  event_time: BigInt(1_000 + seq),
  properties: {},
  property_keys: [],
});
const follows = (src: string, dst: string) => link('ADD_EDGE', 'follows', src, dst);

async function setup(events: readonly EdgeMutation[], delayMs = 0) {
  const harness = createFanOutHarness(config);
  for (const e of events) await harness.process(e);
  const recording = recordingPartitionReader(createStorePartitionReader(harness.store), { delayMs });
  return { reader: createEdgeReader({ partitions: recording.reader, config }), recording };
}

const out: TraversalHop = { type: 'follows', direction: 'out' };
const into: TraversalHop = { type: 'follows', direction: 'in' };

describe('traverse', () => {
  it('expands hop by hop, never returning a vertex twice or the start, over ACTIVE links only', async () => {
    const { reader } = await setup([
      follows('a', 'b'),
      follows('a', 'c'),
      follows('b', 'c'),
      follows('b', 'd'),
      follows('c', 'a'),
      follows('c', 'e'),
      link('ADD_EDGE', 'follows', 'd', 'x'),
      link('REMOVE_EDGE', 'follows', 'd', 'x'),
      link('ADD_EDGE', 'likes', 'e', 'f'),
    ]);
    const result = await reader.traverse('a', [out, out, out, { type: 'likes', direction: 'out' }], { perHopCap: 100, concurrency: 4 });
    expect(result.truncated).toBe(false);
    expect(result.hops.map((h) => [...h.vertices].sort())).toEqual([['b', 'c'], ['d', 'e'], [], []]);
  });

  it('follows the direction of each hop', async () => {
    const { reader } = await setup([follows('x', 'hub'), follows('y', 'hub'), follows('x', 'z')]);
    const result = await reader.traverse('hub', [into, out], { perHopCap: 10, concurrency: 2 });
    expect(result.hops.map((h) => [...h.vertices].sort())).toEqual([['x', 'y'], ['z']]);
  });

  it('stops a hop at perHopCap, requests no further page or vertex, and reports the truncation', async () => {
    const events = [
      ...Array.from({ length: 10 }, (_, i) => follows('a', `f${i}`)),
      ...Array.from({ length: 10 }, (_, i) => Array.from({ length: 50 }, (_, j) => follows(`f${i}`, `g${i}-${j}`))).flat(),
    ];
    const { reader, recording } = await setup(events, 1);
    const result = await reader.traverse('a', [out, out], { perHopCap: 25, concurrency: 2, pageSize: 10 });
    expect(result.hops[0]).toMatchObject({ vertices: Array.from({ length: 10 }, (_, i) => `f${i}`), truncated: false });
    expect(result.partial).toEqual({ reason: 'hop_cap', hop: 1 });
    expect(result.hops[1]!.vertices).toHaveLength(25);
    expect(new Set(result.hops[1]!.vertices).size).toBe(25);
    expect(result.hops[1]!.truncated).toBe(true);
    expect(result.truncated).toBe(true);
    // 25 vertices at 10 per page: 3 pages, plus at most one more in flight on the other slot
    const secondHopPages = recording.calls.filter((c) => c.kind === 'scan' && c.id !== 'a');
    expect(secondHopPages.length).toBeLessThanOrEqual(4);
    expect(recording.maxInFlight()).toBeLessThanOrEqual(2);
  });

  it('is not truncated when the cap is reached exactly as the last link is read', async () => {
    const { reader } = await setup([follows('a', 'b'), follows('a', 'c'), follows('a', 'd')]);
    const result = await reader.traverse('a', [out], { perHopCap: 3, concurrency: 1, pageSize: 3 });
    expect(result).toEqual({
      hops: [{ vertices: ['b', 'c', 'd'], truncated: false, stats: { queries: 1, rowsRead: 3, frontier: 1, replicaGroups: 1 } }],
      truncated: false,
      stats: { queries: 1, rowsRead: 3 },
    });
  });

  it('expands a wide frontier with at most `concurrency` reads in flight', async () => {
    // 200 vertices: four batches of 50
    const events = [...Array.from({ length: 200 }, (_, i) => follows('a', `f${i}`)), ...Array.from({ length: 200 }, (_, i) => follows(`f${i}`, `g${i}`))];
    const { reader, recording } = await setup(events, 2);
    const result = await reader.traverse('a', [out, out], { perHopCap: 1_000, concurrency: 3 });
    expect(result.hops[1]!.vertices).toHaveLength(200);
    expect(recording.maxInFlight()).toBeLessThanOrEqual(3);
    expect(recording.maxInFlight()).toBeGreaterThan(1);
  });

  const celebrity = (followers: number) => Array.from({ length: followers }, (_, i) => follows(`fan${i}`, 'celeb'));

  it('stops at the read budget on a vertex with a large neighbourhood and says so', async () => {
    const { reader, recording } = await setup(celebrity(500));
    const result = await reader.traverse('celeb', [into, out], { perHopCap: 100_000, concurrency: 4, pageSize: 50, maxRows: 120 });
    expect(result.partial).toEqual({ reason: 'read_budget', hop: 0 });
    expect(result.truncated).toBe(true);
    expect(result.hops).toHaveLength(1);
    expect(result.hops[0]!.vertices.length).toBeGreaterThan(0);
    expect(result.hops[0]!.vertices.length).toBeLessThanOrEqual(120);
    // never asked for more rows than the budget holds
    const asked = recording.calls.reduce((sum, c) => sum + (c.limit ?? 1), 0);
    expect(asked).toBeLessThanOrEqual(120);
    expect(result.stats.rowsRead).toBe(result.hops[0]!.stats.rowsRead);
    expect(result.stats.rowsRead).toBeLessThanOrEqual(120);
  });

  it('stops at the query budget', async () => {
    const { reader, recording } = await setup(celebrity(500));
    const result = await reader.traverse('celeb', [into], { perHopCap: 100_000, concurrency: 1, pageSize: 10, maxQueries: 3 });
    expect(result.partial).toEqual({ reason: 'read_budget', hop: 0 });
    expect(recording.calls).toHaveLength(3);
    expect(result.hops[0]!.vertices).toHaveLength(30);
    expect(result.hops[0]!.stats.queries).toBe(3);
  });

  it('a deadline cuts a traversal and returns what it had', async () => {
    const { reader, recording } = await setup(celebrity(300), 5);
    const result = await reader.traverse('celeb', [into], { perHopCap: 100_000, concurrency: 1, pageSize: 10, deadlineMs: 40 });
    expect(result.partial).toEqual({ reason: 'deadline', hop: 0 });
    expect(result.truncated).toBe(true);
    expect(recording.calls.length).toBeLessThan(30);
    expect(result.hops[0]!.vertices.length).toBeLessThan(300);
  });

  it('an aborted signal stops it as aborted, starting no further read', async () => {
    const { recording } = await setup(celebrity(300));
    const controller = new AbortController();
    const aborting: PartitionReader = {
      ...recording.reader,
      scan: async (ns, id, q) => {
        const page = await recording.reader.scan(ns, id, q);
        if (recording.calls.length === 2) controller.abort();
        return page;
      },
    };
    const r = createEdgeReader({ partitions: aborting, config });
    const result = await r.traverse('celeb', [into], { perHopCap: 100_000, concurrency: 1, pageSize: 10, signal: controller.signal });
    expect(result.partial).toEqual({ reason: 'aborted', hop: 0 });
    expect(recording.calls).toHaveLength(2);
  });

  it('asks no page for more cells than the hop cap still wants', async () => {
    const { reader, recording } = await setup(celebrity(50));
    const result = await reader.traverse('celeb', [{ ...into, cap: 7 }], { pageSize: 100 });
    expect(result.hops[0]!.vertices).toHaveLength(7);
    expect(recording.calls.map((c) => c.limit)).toEqual([7]);
    expect(result.stats.rowsRead).toBe(7);
  });

  it('flags a hop cut by its cap as hop_cap and goes on with the next hop', async () => {
    const events = [...Array.from({ length: 5 }, (_, i) => follows('a', `f${i}`)), ...Array.from({ length: 5 }, (_, i) => follows(`f${i}`, `g${i}`))];
    const { reader } = await setup(events);
    const result = await reader.traverse('a', [{ ...out, cap: 2 }, out], { perHopCap: 100, concurrency: 1 });
    expect(result.partial).toEqual({ reason: 'hop_cap', hop: 0 });
    expect(result.hops.map((h) => [h.vertices.length, h.truncated])).toEqual([[2, true], [2, false]]);
  });

  it('reports queries and rows per hop, a batched read of many vertices being one query', async () => {
    const events = [...Array.from({ length: 6 }, (_, i) => follows('a', `f${i}`)), ...Array.from({ length: 6 }, (_, i) => follows(`f${i}`, `g${i}`))];
    const { reader, recording } = await setup(events);
    const result = await reader.traverse('a', [out, out], { perHopCap: 100, concurrency: 2, pageSize: 4 });
    expect(result.partial).toBeUndefined();
    expect(result.hops.map((h) => h.stats)).toEqual([
      { queries: 2, rowsRead: 6, frontier: 1, replicaGroups: 1 },
      { queries: 1, rowsRead: 6, frontier: 6, replicaGroups: 1 },
    ]);
    expect(result.stats).toEqual({ queries: 3, rowsRead: 12 });
    expect(recording.calls.map((c) => c.kind)).toEqual(['scan', 'scan', 'scanMany']);
  });

  it('reads a hop over 200 small vertices in ceil(200 / BATCH_IDS) batches, and goes on with its own scan only where a first page was full', async () => {
    const large = new Set([7, 70, 140]);
    const events = [
      ...Array.from({ length: 200 }, (_, i) => follows('a', `f${i}`)),
      ...Array.from({ length: 200 }, (_, i) => Array.from({ length: large.has(i) ? BATCH_PAGE_CELLS + 30 : 3 }, (_, j) => follows(`f${i}`, `g${i}-${j}`))).flat(),
    ];
    const { reader, recording } = await setup(events);
    const result = await reader.traverse('a', [out, out], { perHopCap: 100_000 });
    expect(result.hops[1]!.vertices).toHaveLength(197 * 3 + 3 * (BATCH_PAGE_CELLS + 30));
    expect(result.hops[1]!.stats.queries).toBe(Math.ceil(200 / BATCH_IDS) + large.size);
    const secondHop = recording.calls.slice(1);
    const batches = secondHop.filter((c) => c.kind === 'scanMany');
    expect(batches.map((c) => c.ids!.length)).toEqual([50, 50, 50, 50]);
    expect(batches.every((c) => c.limit === BATCH_PAGE_CELLS)).toBe(true);
    const continued = secondHop.filter((c) => c.kind === 'scan');
    expect(continued.map((c) => c.id).sort()).toEqual(['f140', 'f7', 'f70']);
    expect(continued.every((c) => c.after !== undefined)).toBe(true); // from the last key of the first page
    expect(result.truncated).toBe(false);
  });

  it('a capped hop over a wide frontier starts FIRST_WAVE_BATCHES batches, then only those the new vertices per id seen say the cap still needs', async () => {
    // 640 followers of the hub, each following 10 vertices of its own: any 2 batches of 64 hold 1 280 new vertices.
    const events = [
      ...Array.from({ length: 640 }, (_, i) => follows(`f${i}`, 'hub')),
      ...Array.from({ length: 640 }, (_, i) => Array.from({ length: 10 }, (_, j) => follows(`f${i}`, `g${i}-${j}`))).flat(),
    ];
    const { reader, recording } = await setup(events, 5);
    const capped = await reader.traverse('hub', [into, out], { perHopCap: 1_000, concurrency: 8 });
    expect(capped.hops[1]!.vertices).toHaveLength(1_000);
    expect(capped.partial).toEqual({ reason: 'hop_cap', hop: 1 });
    // Both first-wave batches answer (1 280 new, the cap takes 1 000); none after: every batch at once read 640 × 10.
    expect(recording.calls.filter((c) => c.kind === 'scanMany')).toHaveLength(FIRST_WAVE_BATCHES);
    recording.reset();
    // A cap the frontier cannot fill: every batch is read, 8 in flight once the first wave shows the yield.
    const all = await reader.traverse('hub', [into, out], { perHopCap: 10_000, concurrency: 8 });
    expect(all.hops[1]!.vertices).toHaveLength(6_400);
    expect(all.truncated).toBe(false);
    expect(recording.calls.filter((c) => c.kind === 'scanMany')).toHaveLength(10);
  });

  it('claims a batch\'s rows before it starts: batches never ask for more rows than the budget holds, and say read_budget', async () => {
    const events = [...Array.from({ length: 200 }, (_, i) => follows('a', `f${i}`)), ...Array.from({ length: 200 }, (_, i) => Array.from({ length: 3 }, (_, j) => follows(`f${i}`, `g${i}-${j}`))).flat()];
    const { reader, recording } = await setup(events, 1);
    const result = await reader.traverse('a', [out, out], { perHopCap: 100_000, maxRows: 500 });
    expect(result.partial).toEqual({ reason: 'read_budget', hop: 1 });
    expect(result.hops[1]!.truncated).toBe(true);
    // hop 1 read 200 rows (its unused claim returned); hop 2's batches asked for at most the 300 left
    expect(result.hops[0]!.stats.rowsRead).toBe(200);
    const asked = recording.calls.slice(1).reduce((sum, c) => sum + (c.limit ?? 1) * (c.ids?.length ?? 1), 0);
    expect(asked).toBeLessThanOrEqual(300);
    expect(result.stats.rowsRead).toBeLessThanOrEqual(500);
    expect(result.hops[1]!.vertices.length).toBe(result.hops[1]!.stats.rowsRead);
  });

  /** A star a → f0..f299 → g0..g299 whose f's live on two replica sets (even, odd: three batches each), with reads in flight tracked per set. */
  async function twoReplicaSets() {
    const events = [...Array.from({ length: 300 }, (_, i) => follows('a', `f${i}`)), ...Array.from({ length: 300 }, (_, i) => follows(`f${i}`, `g${i}`))];
    const { recording } = await setup(events, 3);
    const inFlight = new Map<string, number>();
    const maxInFlight = new Map<string, number>();
    const setOf = (id: string) => (Number(id.slice(1)) % 2 === 0 ? 'even' : 'odd');
    const tracked = async <T>(id: string, read: () => Promise<T>): Promise<T> => {
      const set = id === 'a' ? 'start' : setOf(id);
      inFlight.set(set, (inFlight.get(set) ?? 0) + 1);
      maxInFlight.set(set, Math.max(maxInFlight.get(set) ?? 0, inFlight.get(set)!));
      try {
        return await read();
      } finally {
        inFlight.set(set, inFlight.get(set)! - 1);
      }
    };
    const grouped: PartitionReader = {
      ...recording.reader,
      replicaGroups: (ids) => ['even', 'odd'].map((replicas) => ({ replicas, ids: ids.filter((id) => setOf(id) === replicas) })).filter((g) => g.ids.length > 0),
      scan: (ns, id, q) => tracked(id, () => recording.reader.scan(ns, id, q)),
      scanMany: (ns, ids, q) => tracked(ids[0]!, () => recording.reader.scanMany(ns, ids, q)),
    };
    return { reader: createEdgeReader({ partitions: grouped, config }), recording, maxInFlight };
  }

  it('expands each replica set of the frontier with its own in-flight limit', async () => {
    const { reader: r, recording, maxInFlight } = await twoReplicaSets();
    const result = await r.traverse('a', [out, out], { perHopCap: 1_000, concurrency: 2 });
    expect(result.hops[1]!.vertices).toHaveLength(300);
    expect(result.hops[1]!.stats).toMatchObject({ replicaGroups: 2, queries: 6 });
    expect(maxInFlight.get('even')).toBe(2);
    expect(maxInFlight.get('odd')).toBe(2);
    expect(recording.maxInFlight()).toBe(4);
  });

  it('bounds the reads in flight across replica sets by maxInFlight', async () => {
    const { reader: r, recording } = await twoReplicaSets();
    const result = await r.traverse('a', [out, out], { perHopCap: 1_000, concurrency: 2, maxInFlight: 3 });
    expect(result.hops[1]!.vertices).toHaveLength(300);
    expect(recording.maxInFlight()).toBe(3);
  });

  it('never asks for the same page twice, even through a celebrity whose peers were all visited', async () => {
    // every fan follows celeb and celeb follows every fan back: hop 2 from the fans reaches only visited vertices
    const events = [...celebrity(40), ...Array.from({ length: 40 }, (_, i) => follows('celeb', `fan${i}`))];
    const { reader, recording } = await setup(events);
    const result = await reader.traverse('celeb', [into, out, into], { perHopCap: 1_000, concurrency: 4, pageSize: 7 });
    expect(result.hops.map((h) => h.vertices.length)).toEqual([40, 0, 0]);
    const asked = recording.calls.map((c) => `${c.namespace}/${c.id}/${Buffer.from(c.after ?? []).toString('hex')}`);
    expect(new Set(asked).size).toBe(asked.length);
    // hop 3 has an empty frontier: nothing read
    expect(result.hops[2]!.stats.queries).toBe(0);
  });
});
