import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { decodeLinkValue, encodeVertexKey, forwardLinkNamespace, type LinkState } from '../../sinks/namespaces/index.ts';
import { applyLww } from '../../test/support/model/applyLww.ts';
import { createFanOutHarness } from '../../test/support/model/createFanOutHarness.ts';
import { modelGraphLines } from '../../test/support/model/graphLines.ts';
import { readStoreGraph } from '../../test/support/model/readStoreGraph.ts';

/**
 * LWW races on ONE edge between add, hide, unhide and remove (with edge times
 * and data): every arrival order of the same events leaves the same link,
 * newest-first list and degree, equal to the model; and at one event time the
 * state byte settles the race as documented: REMOVED > HIDDEN > ACTIVE.
 */
const config = { edgeTypes: [{ name: 'follows' }] };
const OPS = ['ADD_EDGE', 'HIDE_EDGE', 'UNHIDE_EDGE', 'REMOVE_EDGE'] as const;

const linkOp = fc
  .record({
    op: fc.constantFrom(...OPS),
    event_time: fc.bigInt({ min: 1n, max: 4n }),
    edge_time: fc.option(fc.bigInt({ min: 1n, max: 6n })),
    data: fc.option(fc.constantFrom(Buffer.from([7]), Buffer.from([8, 9]))),
    mutation_id: fc.constantFrom('m1', 'm2', 'm3'),
  })
  .map(
    (o): EdgeMutation => ({
      mutation_id: o.mutation_id,
      op: o.op,
      edge_type: 'follows',
      src: 'a',
      dst: 'b',
      event_time: o.event_time,
      properties: {},
      property_keys: [],
      ...(o.op === 'REMOVE_EDGE' ? {} : { edge_time: o.edge_time, data: o.data }),
    }),
  );

async function run(arrivals: readonly EdgeMutation[]) {
  const harness = createFanOutHarness(config);
  for (const e of arrivals) await harness.process(e);
  await harness.recountDegrees();
  const cell = await harness.store.namespace(forwardLinkNamespace('follows')).get('a', encodeVertexKey('b'));
  return { lines: await readStoreGraph(harness.store, ['follows'], ['a', 'b']), state: cell && decodeLinkValue(cell.value).state };
}

describe('link state races between add, hide, unhide and remove', () => {
  it('every arrival order converges to the model', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(linkOp, { minLength: 1, maxLength: 8 }).chain((events) => fc.tuple(fc.constant(events), fc.shuffledSubarray(events, { minLength: events.length }))),
        async ([events, arrivals]) => {
          const expected = modelGraphLines(applyLww(events));
          expect((await run(events)).lines).toEqual(expected);
          expect((await run(arrivals)).lines).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it.each([
    [['ADD_EDGE', 'HIDE_EDGE'], 'HIDDEN'],
    [['UNHIDE_EDGE', 'HIDE_EDGE'], 'HIDDEN'],
    [['HIDE_EDGE', 'REMOVE_EDGE'], 'REMOVED'],
    [['ADD_EDGE', 'REMOVE_EDGE', 'HIDE_EDGE', 'UNHIDE_EDGE'], 'REMOVED'],
  ] as const)('at one event time %j settle as %s, in either arrival order', async (ops, winner: LinkState) => {
    const events = ops.map((op, i): EdgeMutation => ({ mutation_id: `m${9 - i}`, op, edge_type: 'follows', src: 'a', dst: 'b', event_time: 5n, properties: {}, property_keys: [] }));
    expect((await run(events)).state).toBe(winner);
    expect((await run([...events].reverse())).state).toBe(winner);
  });

  it('a hidden edge leaves the newest-first list and the degree; unhiding brings it back at its edge time', async () => {
    const e = (op: (typeof OPS)[number], t: bigint, edgeTime?: bigint): EdgeMutation => ({
      mutation_id: `${op}-${t}`, op, edge_type: 'follows', src: 'a', dst: 'b', event_time: t, properties: {}, property_keys: [], ...(edgeTime === undefined ? {} : { edge_time: edgeTime }),
    });
    const hidden = await run([e('ADD_EDGE', 1n, 100n), e('HIDE_EDGE', 2n, 100n)]);
    expect(hidden.state).toBe('HIDDEN');
    expect(hidden.lines.filter((l) => l.startsWith('newest'))).toEqual([]);
    expect(hidden.lines.filter((l) => l.startsWith('degree follows out a'))).toEqual([]); // 0: no nonzero count
    const back = await run([e('ADD_EDGE', 1n, 100n), e('HIDE_EDGE', 2n, 100n), e('UNHIDE_EDGE', 3n, 100n)]);
    expect(back.lines).toContain('newest follows out a: b@100(UNHIDE_EDGE-3)');
    expect(back.lines).toContain('degree follows out a = 1');
  });
});
