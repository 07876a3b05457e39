import { describe, expect, it } from 'vitest';
import { consolidateMutations, type PartitionWrites } from './consolidateMutations.ts';
import type { Mutation } from './TwoLevelMapStore.ts';

const k = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));
const m = (namespace: string, id: string, writeTime: bigint, deletions: string[], additions: [string, string][]): Mutation => ({
  namespace,
  id,
  writeTime,
  deletions: deletions.map(k),
  additions: additions.map(([key, value]) => ({ key: k(key), value: k(value) })),
});

/** A readable form: `del key@t` and `add key=value@t` per group. */
const show = (groups: PartitionWrites[]) =>
  groups.map((g) => ({
    partition: `${g.namespace}/${g.id}`,
    from: g.mutationIndexes,
    writes: [
      ...g.deletions.map((d) => `del ${Buffer.from(d.key).toString('hex')}@${d.writeTime}`),
      ...g.additions.map((a) => `add ${Buffer.from(a.key).toString('hex')}=${Buffer.from(a.value).toString('hex')}@${a.writeTime}`),
    ],
  }));

describe('consolidateMutations', () => {
  it.each<[string, Mutation[], ReturnType<typeof show>]>([
    [
      'drops a deletion that an addition at the same write time overwrites',
      [m('ns', 'a', 5n, ['01', '02'], [['01', 'aa']])],
      [{ partition: 'ns/a', from: [0], writes: ['del 02@5', 'add 01=aa@5'] }],
    ],
    [
      'keeps a deletion at a different write time than the addition',
      [m('ns', 'a', 5n, ['01'], []), m('ns', 'a', 6n, [], [['01', 'aa']])],
      [{ partition: 'ns/a', from: [0, 1], writes: ['del 01@5', 'add 01=aa@6'] }],
    ],
    [
      'drops a same-time deletion even when it comes from another mutation',
      [m('ns', 'a', 5n, [], [['01', 'aa']]), m('ns', 'a', 5n, ['01'], [])],
      [{ partition: 'ns/a', from: [0, 1], writes: ['add 01=aa@5'] }],
    ],
    [
      'collapses duplicates, keeping the greater of two equal-time values',
      [m('ns', 'a', 5n, ['02', '02'], [['01', '7fff'], ['01', '80']]), m('ns', 'a', 5n, ['02'], [['01', '7f']])],
      [{ partition: 'ns/a', from: [0, 1], writes: ['del 02@5', 'add 01=80@5'] }],
    ],
    [
      'groups per namespace and partition, in order of first appearance, keys sorted',
      [m('ns', 'b', 1n, [], [['ff', '01'], ['00', '02']]), m('other', 'b', 1n, ['01'], []), m('ns', 'a', 1n, ['01'], [])],
      [
        { partition: 'ns/b', from: [0], writes: ['add 00=02@1', 'add ff=01@1'] },
        { partition: 'other/b', from: [1], writes: ['del 01@1'] },
        { partition: 'ns/a', from: [2], writes: ['del 01@1'] },
      ],
    ],
  ])('%s', (_name, input, expected) => {
    expect(show(consolidateMutations(input))).toEqual(expected);
  });

  it('returns no groups for no mutations', () => {
    expect(consolidateMutations([])).toEqual([]);
  });
});
