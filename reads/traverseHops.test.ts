import { describe, expect, it } from 'vitest';
import { defaultEdgestreamConfig } from '../schemas/config/edgestreamConfig.ts';
import type { EdgeMutation } from '../schemas/generated/EdgeMutation.ts';
import { createFanOutHarness } from '../test/support/model/createFanOutHarness.ts';
import { createEdgeReader } from './createEdgeReader.ts';
import { createStorePartitionReader } from './createStorePartitionReader.ts';
import type { TraversalHop } from './EdgeReader.ts';
import { recordingPartitionReader } from './testing/recordingPartitionReader.ts';

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
    expect(result.hops[0]).toEqual({ vertices: Array.from({ length: 10 }, (_, i) => `f${i}`), truncated: false });
    expect(result.hops[1]!.vertices).toHaveLength(25);
    expect(new Set(result.hops[1]!.vertices).size).toBe(25);
    expect(result.hops[1]!.truncated).toBe(true);
    expect(result.truncated).toBe(true);
    // 25 vertices at 10 per page: 3 pages, plus at most one more in flight on the other slot
    const secondHopPages = recording.calls.filter((c) => c.kind === 'page' && c.id !== 'a');
    expect(secondHopPages.length).toBeLessThanOrEqual(4);
    expect(recording.maxInFlight()).toBeLessThanOrEqual(2);
  });

  it('is not truncated when the cap is reached exactly as the last link is read', async () => {
    const { reader } = await setup([follows('a', 'b'), follows('a', 'c'), follows('a', 'd')]);
    const result = await reader.traverse('a', [out], { perHopCap: 3, concurrency: 1, pageSize: 3 });
    expect(result).toEqual({ hops: [{ vertices: ['b', 'c', 'd'], truncated: false }], truncated: false });
  });

  it('expands a wide frontier with at most `concurrency` reads in flight', async () => {
    const events = [...Array.from({ length: 20 }, (_, i) => follows('a', `f${i}`)), ...Array.from({ length: 20 }, (_, i) => follows(`f${i}`, `g${i}`))];
    const { reader, recording } = await setup(events, 2);
    const result = await reader.traverse('a', [out, out], { perHopCap: 1_000, concurrency: 3 });
    expect(result.hops[1]!.vertices).toHaveLength(20);
    expect(recording.maxInFlight()).toBeLessThanOrEqual(3);
    expect(recording.maxInFlight()).toBeGreaterThan(1);
  });
});
