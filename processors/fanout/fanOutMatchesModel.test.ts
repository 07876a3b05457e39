import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { applyLww } from '../../test/support/model/applyLww.ts';
import { createFanOutHarness, type FanOutHarness } from '../../test/support/model/createFanOutHarness.ts';
import { edgeMutationArbitrary, MODEL_EDGE_TYPE_CONFIG, MODEL_EDGE_TYPES, MODEL_SYMMETRIC_TYPES, MODEL_VERTICES } from '../../test/support/model/edgeMutationArbitrary.ts';
import { modelGraphLines } from '../../test/support/model/graphLines.ts';
import { readStoreGraph } from '../../test/support/model/readStoreGraph.ts';

/**
 * The pure twin of the Kafka + Cassandra convergence test: random event
 * sequences (duplicates, shuffled arrival, removes and re-adds, properties,
 * node removals), run through the fan-out processor and an in-memory store,
 * with each REMOVE_NODE's cascade run at a random later moment and its events
 * arriving at random moments after that, must leave the store equal to what
 * the reference model `applyLww` computes: links both ways, validated
 * newest-first lists, property bags (one per direction of a directed type,
 * one shared by a symmetric type), recounted degrees, node tombstones.
 *
 * Processing is sequential, which stands for the cascade's settle wait: an
 * event processed before the cascade has landed when the cascade pages.
 */
const config = { edgeTypes: MODEL_EDGE_TYPE_CONFIG };

type Step = { readonly kind: 'event'; readonly event: EdgeMutation } | { readonly kind: 'cascade'; readonly removeNode: EdgeMutation };

/** Deterministic positions for later arrivals, drawn from a fast-check seed (so failures replay and shrink). */
function positions(seed: number): (upTo: number) => number {
  let state = seed >>> 0 || 1;
  return (upTo) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % (upTo + 1);
  };
}

async function runArrivals(harness: FanOutHarness, arrivals: readonly EdgeMutation[], seed: number): Promise<void> {
  const queue: Step[] = arrivals.map((event) => ({ kind: 'event', event }));
  const later = positions(seed);
  while (queue.length > 0) {
    const step = queue.shift() as Step;
    if (step.kind === 'event') {
      await harness.process(step.event);
      if (step.event.op === 'REMOVE_NODE') queue.splice(later(queue.length), 0, { kind: 'cascade', removeNode: step.event });
    } else {
      for (const event of await harness.cascadeEvents(step.removeNode)) queue.splice(later(queue.length), 0, { kind: 'event', event });
    }
  }
}

const scenario = fc
  .array(edgeMutationArbitrary, { minLength: 1, maxLength: 25 })
  .chain((events) =>
    fc.record({
      events: fc.constant(events),
      // Duplicates and replays: some events arrive again.
      arrivals: fc.array(fc.constantFrom(...events), { maxLength: 8 }).chain((dups) => fc.shuffledSubarray([...events, ...dups], { minLength: events.length + dups.length })),
      seed: fc.integer(),
    }),
  );

async function storeLines(harness: FanOutHarness): Promise<string[]> {
  await harness.recountDegrees();
  return readStoreGraph(harness.store, MODEL_EDGE_TYPES, MODEL_VERTICES);
}

describe('fan-out + cascade + recount converge to the reference model', () => {
  it('for random event sequences in random arrival order, with duplicates', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ events, arrivals, seed }) => {
        const harness = createFanOutHarness(config);
        await runArrivals(harness, arrivals, seed);
        expect(await storeLines(harness)).toEqual(modelGraphLines(applyLww(events, MODEL_SYMMETRIC_TYPES)));
      }),
      { numRuns: 300 },
    );
  });

  it('replaying every event again, in another order, changes nothing', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(scenario, fc.integer(), async ({ arrivals, seed }, replaySeed) => {
        const harness = createFanOutHarness(config);
        await runArrivals(harness, arrivals, seed);
        const before = await storeLines(harness);
        await runArrivals(harness, [...arrivals].reverse(), replaySeed);
        expect(await storeLines(harness)).toEqual(before);
      }),
      { numRuns: 100 },
    );
  });

  it.each<[string, EdgeMutation[]]>([
    [
      'an ADD that arrives after its node was removed does not resurrect the edge or its properties',
      [
        { mutation_id: 'rm', op: 'REMOVE_NODE', edge_type: '', src: 'b', dst: '', event_time: 5n, properties: {}, property_keys: [] },
        { mutation_id: 'm1', op: 'ADD_EDGE', edge_type: 'follows', src: 'a', dst: 'b', event_time: 3n, properties: { p: 1n }, property_keys: [] },
      ],
    ],
    [
      'a re-add after a node removal survives, and the removal still clears the older properties',
      [
        { mutation_id: 'm0', op: 'SET_PROPERTIES', edge_type: 'follows', src: 'a', dst: 'b', event_time: 2n, properties: { q: 'old' }, property_keys: [] },
        { mutation_id: 'rm', op: 'REMOVE_NODE', edge_type: '', src: 'b', dst: '', event_time: 4n, properties: {}, property_keys: [] },
        { mutation_id: 'm1', op: 'ADD_EDGE', edge_type: 'follows', src: 'a', dst: 'b', event_time: 6n, properties: { p: 1n }, property_keys: [] },
      ],
    ],
    [
      'mutual directed edges keep their own bags; clearing one direction leaves the other',
      [
        { mutation_id: 'm1', op: 'ADD_EDGE', edge_type: 'follows', src: 'a', dst: 'b', event_time: 1n, properties: { p: 1n }, property_keys: [] },
        { mutation_id: 'm2', op: 'ADD_EDGE', edge_type: 'follows', src: 'b', dst: 'a', event_time: 2n, properties: { p: 2n, q: 'x' }, property_keys: [] },
        { mutation_id: 'm3', op: 'REMOVE_PROPERTIES', edge_type: 'follows', src: 'b', dst: 'a', event_time: 3n, properties: {}, property_keys: [] },
        { mutation_id: 'm4', op: 'SET_PROPERTIES', edge_type: 'follows', src: 'b', dst: 'a', event_time: 2n, properties: { r: true }, property_keys: [] },
      ],
    ],
    [
      'a symmetric type shares one bag: a write from b→a is seen from a→b, and a clear from either side clears it',
      [
        { mutation_id: 'm1', op: 'ADD_EDGE', edge_type: 'friends', src: 'a', dst: 'b', event_time: 1n, properties: { p: 1n }, property_keys: [] },
        { mutation_id: 'm2', op: 'SET_PROPERTIES', edge_type: 'friends', src: 'b', dst: 'a', event_time: 2n, properties: { q: 'x' }, property_keys: [] },
        { mutation_id: 'm3', op: 'REMOVE_PROPERTIES', edge_type: 'friends', src: 'b', dst: 'a', event_time: 3n, properties: {}, property_keys: [] },
        { mutation_id: 'm4', op: 'SET_PROPERTIES', edge_type: 'friends', src: 'a', dst: 'b', event_time: 4n, properties: { r: true }, property_keys: [] },
      ],
    ],
  ])('%s, in every arrival order', async (_, events) => {
    const expected = modelGraphLines(applyLww(events, MODEL_SYMMETRIC_TYPES));
    for (const order of [events, [...events].reverse()]) {
      const harness = createFanOutHarness(config);
      await runArrivals(harness, order, 7);
      expect(await storeLines(harness)).toEqual(expected);
    }
  });
});
