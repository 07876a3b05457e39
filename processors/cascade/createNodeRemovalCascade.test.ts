import { describe, expect, it } from 'vitest';
import { encodeLinkValue, encodeNodeTombstoneValue } from '../../sinks/namespaces/index.ts';
import type { Cell } from '../../sinks/store/TwoLevelMapStore.ts';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import type { CascadeLogic } from '../../streams/runtime/runners/cascadeTypes.ts';
import { createNodeRemovalCascade } from './createNodeRemovalCascade.ts';

const cascade = createNodeRemovalCascade({
  edgeTypes: [{ name: 'follows' }, { name: 'likes' }],
  maxMutationIdBytes: 128,
  cascadeSettleMs: 30_000,
});
// Compile-time check that the runner accepts it (streams/runtime CascadeLogic).
const asRunnerLogic: CascadeLogic<EdgeMutation> = cascade;

const removeBob: EdgeMutation = { mutation_id: 'rm', op: 'REMOVE_NODE', edge_type: '', src: 'bob', dst: '', event_time: 100n, properties: {}, property_keys: [] };
const NOW_MS = 1_700_000_000_000;
const ctx = { wallClockMicros: BigInt(NOW_MS) * 1000n };
const tombstone = (time: bigint, writtenAtMs: number): Cell => ({
  key: new Uint8Array(0),
  value: encodeNodeTombstoneValue({ mutationId: 'rm', writtenAtMicros: BigInt(writtenAtMs) * 1000n }),
  writeTime: time,
});

describe('createNodeRemovalCascade', () => {
  it('plans REMOVE_NODE only: gated on the node tombstone, paging both link namespaces of every edge type', () => {
    expect(asRunnerLogic.plan({ ...removeBob, op: 'ADD_EDGE' })).toBeUndefined();
    const plan = cascade.plan(removeBob);
    expect(plan?.gate).toEqual({ namespace: 'node_tombstones', id: 'bob', key: new Uint8Array(0) });
    expect(plan?.sources.map((s) => `${s.namespace}[${s.id}]`)).toEqual(['follows_out[bob]', 'follows_in[bob]', 'likes_out[bob]', 'likes_in[bob]']);
  });

  const absent = { kind: 'absent', recheckAtMs: NOW_MS + 30_000, what: "node tombstone of 'bob' at >= 100" } as const;
  it.each<[string, Cell | undefined, { wallClockMicros: bigint }, ReturnType<typeof cascade.gate>]>([
    ['reports the tombstone absent while it is not visible (the runner asks the fan-out)', undefined, ctx, absent],
    ['reports it absent while only an older tombstone is visible', tombstone(99n, NOW_MS - 60_000), ctx, absent],
    ['waits until the tombstone has settled', tombstone(100n, NOW_MS - 10_000), ctx, { kind: 'wait', untilMs: NOW_MS + 20_000 }],
    ['goes once it has settled', tombstone(100n, NOW_MS - 30_000), ctx, { kind: 'go' }],
    ['goes on a newer settled tombstone (it covers this removal)', tombstone(200n, NOW_MS - 40_000), ctx, { kind: 'go' }],
  ])('%s', (_, cell, c, expected) => {
    expect(cascade.gate(removeBob, cell, c)).toEqual(expected);
  });

  it('emits the page events on the input topic keyed by each src', () => {
    const cells: Cell[] = [{ key: Buffer.from('alice'), value: encodeLinkValue({ state: 'ACTIVE', time: 1n, mutationId: 'm' }), writeTime: 1n }];
    const emits = cascade.emitsForPage(removeBob, tombstone(100n, 0), { namespace: 'likes_in', id: 'bob' }, cells);
    expect(emits.map((e) => `${e.topic} ${e.key} ${(e.value as EdgeMutation).op} ${(e.value as EdgeMutation).edge_type}`)).toEqual([
      'edge-mutations alice REMOVE_EDGE likes',
      'edge-mutations alice REMOVE_PROPERTIES likes',
    ]);
    expect(() => cascade.emitsForPage(removeBob, tombstone(100n, 0), { namespace: 'blocks_in', id: 'bob' }, cells)).toThrow(/not a link namespace/);
  });
});
