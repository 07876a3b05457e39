import { describe, expect, it } from 'vitest';
import { compareAnswers, firstDifference } from './answerCheck.ts';
import type { LinkRow, MixTarget, PointLink } from './mixTarget.ts';

const target = (pages: Record<string, LinkRow[]>, counts: Record<string, bigint>): MixTarget => ({
  execute: async () => {},
  page: async (src) => pages[src] ?? [],
  links: async (src, dsts): Promise<PointLink[]> => (pages[src] ?? []).filter((r) => dsts.includes(r.dst)).map((r) => ({ ...r, visible: true })),
  count: async (src) => counts[src] ?? 0n,
});

describe('firstDifference', () => {
  it('names the first position where two answers differ, a missing row included', () => {
    expect(firstDifference(['a', 'b'], ['a', 'b'])).toBeUndefined();
    expect(firstDifference(['a', 'b'], ['a', 'c'])).toBe('#1: b vs c');
    expect(firstDifference(['a'], ['a', 'c'])).toBe('#1: (none) vs c');
  });
});

describe('compareAnswers', () => {
  it('counts the vertices whose pages, multi-gets or counts differ', async () => {
    const rows = [{ dst: 'b', time: 2n, data: 'AA==' }, { dst: 'c', time: 1n, data: '' }];
    const same = target({ a: rows, x: rows }, { a: 2n, x: 2n });
    const other = target({ a: rows, x: [rows[1] as LinkRow, rows[0] as LinkRow] }, { a: 2n, x: 1n });
    const vertices = [{ src: 'a', dsts: ['b'] }, { src: 'x', dsts: ['b', 'c'] }];
    expect(await compareAnswers({ a: same, b: same, vertices, compareCounts: true })).toMatchObject({ pageDifferences: 0, multigetDifferences: 0, countDifferences: 0 });
    const r = await compareAnswers({ a: same, b: other, vertices, compareCounts: true });
    expect(r).toMatchObject({ vertices: 2, pageDifferences: 1, multigetDifferences: 0, countDifferences: 1 });
    expect(r.examples[0]).toMatch(/^page of x: #0: b@2:AA== vs c@1:/);
    expect((await compareAnswers({ a: same, b: other, vertices, compareCounts: false })).countDifferences).toBe(0);
  });
});
