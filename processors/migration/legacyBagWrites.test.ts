import { describe, expect, it } from 'vitest';
import { encodePropertyValue } from '../../sinks/namespaces/index.ts';
import type { Cell } from '../../sinks/store/TwoLevelMapStore.ts';
import { renderMutations } from '../../test/support/model/renderMutation.ts';
import { legacyBagWrites } from './legacyBagWrites.ts';

const old = (name: string, value: bigint, writeTime: bigint): Cell => ({ key: Buffer.from(name), value: encodePropertyValue(value), writeTime });
const cells = [old('since', 2020n, 10n), old('rank', 1n, 12n)];

describe('legacyBagWrites: moving an old shared bag into direction-separated bags', () => {
  it.each<[string, boolean, { forward: boolean; backward: boolean }, string[]]>([
    ['a link a→b only: the forward bag', false, { forward: true, backward: false }, ['fwd:since']],
    ['a link b→a only: the backward bag', false, { forward: false, backward: true }, ['bwd:since']],
    ['links both ways (the merged bag of mutual follows): both bags', false, { forward: true, backward: true }, ['fwd:since', 'bwd:since']],
    ['no link (a property-only edge): both bags', false, { forward: false, backward: false }, ['fwd:since', 'bwd:since']],
    ['a symmetric type: its one bag', true, { forward: true, backward: false }, ['sym:since']],
  ])('%s, each copy at the old cell\'s write time, then the old cell deleted at that time', (_, symmetric, links, targets) => {
    const lines = renderMutations(legacyBagWrites('follows', 'a\u0000b', [cells[0]!], symmetric, links));
    expect(lines).toEqual([...targets.map((t) => `follows_props[a␀b] @10 put ${t} = 2020n`), 'follows_props[a␀b] @10 del legacy:since']);
  });

  it('leaves cells of the new layout alone, so a second run writes nothing', () => {
    const moved = legacyBagWrites('follows', 'a\u0000b', cells, false, { forward: true, backward: false });
    const newCells = moved.flatMap((m) => m.additions.map((a) => ({ key: a.key, value: a.value, writeTime: m.writeTime })));
    expect(legacyBagWrites('follows', 'a\u0000b', newCells, false, { forward: true, backward: false })).toEqual([]);
    expect(moved).toHaveLength(4);
  });
});
