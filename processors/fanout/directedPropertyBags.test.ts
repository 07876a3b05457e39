import { describe, expect, it } from 'vitest';
import { defaultEdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { createEdgeReader } from '../../reads/createEdgeReader.ts';
import { createStorePartitionReader } from '../../reads/createStorePartitionReader.ts';
import { followsMutation } from '../../test/support/model/followsMutation.ts';
import { createFanOutHarness } from '../../test/support/model/createFanOutHarness.ts';

/**
 * Issue 11 item 2: a→b and b→a of a directed type are two edges with two
 * property bags, although both live in the one partition of the vertex pair.
 * Events go through the real fan-out processor (and the cascade's events for
 * a REMOVE_NODE) over a memory store; bags are read with the real reader.
 */
const config = defaultEdgestreamConfig(); // follows, likes: directed

const event = followsMutation;

async function bagsAfter(events: readonly EdgeMutation[]) {
  const harness = createFanOutHarness(config);
  for (const e of events) {
    await harness.process(e);
    if (e.op === 'REMOVE_NODE') for (const cascaded of await harness.cascadeEvents(e)) await harness.process(cascaded);
  }
  const reader = createEdgeReader({ partitions: createStorePartitionReader(harness.store), config, counters: { record: () => {} } });
  return { ab: await reader.props('follows', 'a', 'b'), ba: await reader.props('follows', 'b', 'a') };
}

describe('directed edges keep one property bag per direction', () => {
  const mutual = [
    event('ADD_EDGE', 'a', 'b', 10n, { properties: { since: 2020n } }),
    event('ADD_EDGE', 'b', 'a', 11n, { properties: { since: 2023n, close: true } }),
  ];

  it('mutual follows keep their own properties', async () => {
    expect(await bagsAfter(mutual)).toEqual({ ab: { since: 2020n }, ba: { since: 2023n, close: true } });
  });

  it('clearing one direction\'s bag leaves the other direction\'s bag alone', async () => {
    const clear = event('REMOVE_PROPERTIES', 'a', 'b', 12n);
    expect(await bagsAfter([...mutual, clear])).toEqual({ ab: {}, ba: { since: 2023n, close: true } });
    expect(await bagsAfter([clear, ...mutual].reverse())).toEqual({ ab: {}, ba: { since: 2023n, close: true } });
  });

  it('a clear still hides older writes of its direction that arrive later, and not newer ones', async () => {
    const clear = event('REMOVE_PROPERTIES', 'a', 'b', 12n);
    const late = event('SET_PROPERTIES', 'a', 'b', 11n, { properties: { muted: true } });
    const newer = event('SET_PROPERTIES', 'a', 'b', 13n, { properties: { rank: 1n } });
    expect(await bagsAfter([...mutual, clear, late, newer])).toEqual({ ab: { rank: 1n }, ba: { since: 2023n, close: true } });
  });

  it('deleting a key in one direction keeps the same key of the other direction', async () => {
    const drop = event('REMOVE_PROPERTIES', 'b', 'a', 12n, { property_keys: ['since'] });
    expect(await bagsAfter([...mutual, drop])).toEqual({ ab: { since: 2020n }, ba: { close: true } });
  });

  it('a node removal clears the bags of the links it removes and only those', async () => {
    // b→a has properties but no link record: the cascade cannot find it, so it keeps them.
    const events = [
      event('ADD_EDGE', 'a', 'b', 10n, { properties: { since: 2020n } }),
      event('SET_PROPERTIES', 'b', 'a', 11n, { properties: { note: 'x' } }),
      event('REMOVE_NODE', 'a', '', 12n, { edge_type: '' }),
    ];
    expect(await bagsAfter(events)).toEqual({ ab: {}, ba: { note: 'x' } });
  });

  it('an ADD that lands after its node was removed clears only its own direction\'s bag', async () => {
    const events = [
      event('SET_PROPERTIES', 'b', 'a', 9n, { properties: { note: 'x' } }),
      event('REMOVE_NODE', 'b', '', 12n, { edge_type: '' }),
      event('ADD_EDGE', 'a', 'b', 10n, { properties: { since: 2020n } }),
    ];
    expect(await bagsAfter(events)).toEqual({ ab: {}, ba: { note: 'x' } });
  });
});
