import fc from 'fast-check';
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

/** `m` with `clear: true`. */
const c = (...args: Parameters<typeof m>): Mutation => ({ ...m(...args), clear: true });

/** A readable form: `clear@t`, `del key@t` and `add key=value@t` per group. */
const show = (groups: PartitionWrites[]) =>
  groups.map((g) => ({
    partition: `${g.namespace}/${g.id}`,
    from: g.mutationIndexes,
    writes: [
      ...g.clears.map((t) => `clear@${t}`),
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
      'lets a same-time deletion from another mutation win, as if sent separately (two events never cancel each other)',
      [m('ns', 'a', 5n, [], [['01', 'aa']]), m('ns', 'a', 5n, ['01'], [])],
      [{ partition: 'ns/a', from: [0, 1], writes: ['del 01@5'] }],
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
    [
      'keeps a clear at its write time when nothing is added at that time',
      [c('ns', 'a', 5n, ['01'], []), m('ns', 'a', 6n, [], [['02', 'bb']])],
      [{ partition: 'ns/a', from: [0, 1], writes: ['clear@5', 'del 01@5', 'add 02=bb@6'] }],
    ],
    [
      'writes a clear at T-1 when the group adds at T, so the additions stay visible; deletions keep T',
      [c('ns', 'a', 5n, ['01', '02'], [['02', 'bb']])],
      [{ partition: 'ns/a', from: [0], writes: ['clear@4', 'del 01@5', 'add 02=bb@5'] }],
    ],
    [
      'lowers a clear only for its own additions: another mutation\'s same-time add loses to it',
      [c('ns', 'a', 5n, [], []), m('ns', 'a', 5n, [], [['01', 'aa']]), c('ns', 'b', 5n, [], []), m('other', 'b', 5n, [], [['01', 'aa']])],
      [
        { partition: 'ns/a', from: [0, 1], writes: ['clear@5', 'add 01=aa@5'] },
        { partition: 'ns/b', from: [2], writes: ['clear@5'] },
        { partition: 'other/b', from: [3], writes: ['add 01=aa@5'] },
      ],
    ],
    [
      'keeps one clear per write time, ascending, after lowering',
      [c('ns', 'a', 7n, [], []), c('ns', 'a', 3n, [], []), c('ns', 'a', 7n, [], []), c('ns', 'a', 5n, [], [['01', 'aa']])],
      [{ partition: 'ns/a', from: [0, 1, 2, 3], writes: ['clear@3', 'clear@4', 'clear@7', 'add 01=aa@5'] }],
    ],
    [
      'drops a clear at 0 that comes with additions at 0: there is nothing older to hide',
      [c('ns', 'a', 0n, [], [['01', 'aa']])],
      [{ partition: 'ns/a', from: [0], writes: ['add 01=aa@0'] }],
    ],
    [
      'ignores clear: false',
      [{ ...m('ns', 'a', 5n, [], []), clear: false }],
      [{ partition: 'ns/a', from: [0], writes: [] }],
    ],
  ])('%s', (_name, input, expected) => {
    expect(show(consolidateMutations(input))).toEqual(expected);
  });

  it('returns no groups for no mutations', () => {
    expect(consolidateMutations([])).toEqual([]);
  });

  it('gives a lone additions-only mutation (its fast path) the result of the general path', () => {
    const bytes = fc.uint8Array({ maxLength: 3 });
    const additions = fc.array(fc.record({ key: bytes, value: bytes }), { maxLength: 6 });
    fc.assert(
      fc.property(additions, fc.bigInt({ min: 0n, max: 9n }), (adds, writeTime) => {
        const lone: Mutation = { namespace: 'ns', id: 'a', writeTime, deletions: [], additions: adds };
        // An empty second mutation of the same partition changes nothing but forces the general path.
        const empty: Mutation = { namespace: 'ns', id: 'a', writeTime, deletions: [], additions: [] };
        const [fast] = consolidateMutations([lone]);
        const [general] = consolidateMutations([lone, empty]);
        expect(fast).toEqual({ ...general, mutationIndexes: [0] });
      }),
    );
  });
});
