import { describe, expect, it } from 'vitest';
import { encodeLinkValue, type LinkValue } from '../../sinks/namespaces/index.ts';
import type { Cell } from '../../sinks/store/TwoLevelMapStore.ts';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { cascadeEventsForPage } from './cascadeEventsForPage.ts';
import { cascadeMutationId } from './cascadeMutationId.ts';

const removeBob: EdgeMutation = {
  mutation_id: 'rm-bob',
  op: 'REMOVE_NODE',
  edge_type: '',
  src: 'bob',
  dst: '',
  event_time: 100n,
  properties: {},
  property_keys: [],
};
const options = { maxMutationIdBytes: 128 };

const cell = (peer: string, link: LinkValue): Cell => ({ key: Buffer.from(peer), value: encodeLinkValue(link), writeTime: link.time });
const render = (events: EdgeMutation[]): string[] =>
  events.map((e) => `${e.op} ${e.edge_type} ${e.src}->${e.dst} @${e.event_time} ${e.mutation_id} keys=[${e.property_keys.join(',')}]`);

describe('cascadeEventsForPage', () => {
  it.each<[string, 'out' | 'in', Cell[], string[]]>([
    [
      'out-links: bob is the src; REMOVE_EDGE and a bag clear per link at the removal time',
      'out',
      [cell('alice', { state: 'ACTIVE', time: 90n, mutationId: 'm1' }), cell('carol', { state: 'ACTIVE', time: 100n, mutationId: 'm2' })],
      [
        'REMOVE_EDGE follows bob->alice @100 rm-bob keys=[]',
        'REMOVE_PROPERTIES follows bob->alice @100 rm-bob/follows/out/alice keys=[]',
        'REMOVE_EDGE follows bob->carol @100 rm-bob keys=[]',
        'REMOVE_PROPERTIES follows bob->carol @100 rm-bob/follows/out/carol keys=[]',
      ],
    ],
    [
      'in-links: bob is the dst',
      'in',
      [cell('alice', { state: 'ACTIVE', time: 90n, mutationId: 'm1' })],
      [
        'REMOVE_EDGE follows alice->bob @100 rm-bob keys=[]',
        'REMOVE_PROPERTIES follows alice->bob @100 rm-bob/follows/in/alice keys=[]',
      ],
    ],
    [
      'a REMOVED link still gets both: its bag may hold properties, and its REMOVED value converges on the removal',
      'out',
      [cell('alice', { state: 'REMOVED', time: 50n, mutationId: 'm1' })],
      [
        'REMOVE_EDGE follows bob->alice @100 rm-bob keys=[]',
        'REMOVE_PROPERTIES follows bob->alice @100 rm-bob/follows/out/alice keys=[]',
      ],
    ],
    [
      'a link newer than the removal only gets its bag cleared',
      'out',
      [cell('alice', { state: 'ACTIVE', time: 101n, mutationId: 'm1' })],
      ['REMOVE_PROPERTIES follows bob->alice @100 rm-bob/follows/out/alice keys=[]'],
    ],
    ['an empty page publishes nothing', 'out', [], []],
  ])('%s', (_, direction, cells, expected) => {
    expect(render(cascadeEventsForPage(removeBob, 'follows', direction, cells, options))).toEqual(expected);
  });

  it('a self-loop is found once per direction; the bag clears get distinct ids', () => {
    const loop = [cell('bob', { state: 'ACTIVE', time: 1n, mutationId: 'm' })];
    const events = [...cascadeEventsForPage(removeBob, 'follows', 'out', loop, options), ...cascadeEventsForPage(removeBob, 'follows', 'in', loop, options)];
    expect(render(events)).toEqual([
      'REMOVE_EDGE follows bob->bob @100 rm-bob keys=[]',
      'REMOVE_PROPERTIES follows bob->bob @100 rm-bob/follows/out/bob keys=[]',
      'REMOVE_EDGE follows bob->bob @100 rm-bob keys=[]',
      'REMOVE_PROPERTIES follows bob->bob @100 rm-bob/follows/in/bob keys=[]',
    ]);
  });

  it('is deterministic: a replayed page publishes identical events', () => {
    const page = [cell('alice', { state: 'ACTIVE', time: 90n, mutationId: 'm1' })];
    expect(cascadeEventsForPage(removeBob, 'likes', 'in', page, options)).toStrictEqual(cascadeEventsForPage(removeBob, 'likes', 'in', page, options));
  });

  it('rejects anything but a REMOVE_NODE', () => {
    expect(() => cascadeEventsForPage({ ...removeBob, op: 'REMOVE_EDGE' }, 'follows', 'out', [], options)).toThrow(/expected a REMOVE_NODE/);
  });
});

describe('cascadeMutationId', () => {
  it('is readable when it fits the limit', () => {
    expect(cascadeMutationId('rm', 'follows', 'in', 'a/b', 64)).toBe('rm/follows/in/a/b');
  });

  it('falls back to a digest cut to the limit when the readable form is too long', () => {
    const long = cascadeMutationId('rm'.repeat(40), 'follows', 'out', 'p'.repeat(200), 128);
    expect(long).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cascadeMutationId('rm'.repeat(40), 'follows', 'out', 'p'.repeat(200), 128)).toBe(long);
    expect(cascadeMutationId('rm'.repeat(40), 'follows', 'in', 'p'.repeat(200), 128)).not.toBe(long);
    expect(cascadeMutationId('rm', 'follows', 'out', 'peer', 8)).toHaveLength(8);
  });
});
