import { describe, expect, it } from 'vitest';
import { encodeDegreeDirtyKey, encodeDegreesKey, encodeLinkValue, type LinkValue } from '../../sinks/namespaces/index.ts';
import type { Cell } from '../../sinks/store/TwoLevelMapStore.ts';
import { countActiveLinks } from './countActiveLinks.ts';
import { recountTargetOf } from './recountTargetOf.ts';

const cell = (peer: string, state: LinkValue['state']): Cell => ({
  key: Buffer.from(peer),
  value: encodeLinkValue({ state, time: 1n, mutationId: 'm' }),
  writeTime: 1n,
});

describe('countActiveLinks', () => {
  it('counts only ACTIVE cells', () => {
    expect(countActiveLinks([cell('a', 'ACTIVE'), cell('b', 'REMOVED'), cell('c', 'ACTIVE')])).toBe(2n);
    expect(countActiveLinks([])).toBe(0n);
  });

  it('folds page by page to the same count as one page', () => {
    const cells = ['a', 'b', 'c', 'd', 'e'].map((p, i) => cell(p, i % 2 === 0 ? 'ACTIVE' : 'REMOVED'));
    const paged = [cells.slice(0, 2), cells.slice(2, 3), cells.slice(3)].reduce((n, page) => countActiveLinks(page, n), 0n);
    expect(paged).toBe(countActiveLinks(cells));
  });

  it('throws on a cell that is not a LinkValue', () => {
    expect(() => countActiveLinks([{ key: Buffer.from('a'), value: Uint8Array.of(9), writeTime: 1n }])).toThrow(/LinkValue/);
  });
});

describe('recountTargetOf', () => {
  it.each([
    ['out', 'follows_out'],
    ['in', 'follows_in'],
  ] as const)('maps a %s mark to the link partition to count and the degree cell to write', (direction, namespace) => {
    const target = recountTargetOf(encodeDegreeDirtyKey({ edgeType: 'follows', direction, vertex: 'bob' }));
    expect(target).toMatchObject({ edgeType: 'follows', direction, vertex: 'bob', source: { namespace, id: 'bob' } });
    expect(target.result).toEqual({ namespace: 'degrees', id: 'bob', key: encodeDegreesKey('follows', direction) });
  });

  it('rejects a malformed mark', () => {
    expect(() => recountTargetOf(Buffer.from('follows'))).toThrow(/degreeDirtyKey/);
  });
});
