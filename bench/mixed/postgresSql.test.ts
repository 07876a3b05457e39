import { describe, expect, it } from 'vitest';
import type { GraphLink } from './linkGraph.ts';
import { base64 } from './mixTarget.ts';
import { HIDDEN, LINK_TYPE, linkRow, loadBatchParams, planWrite, pointLink, VISIBLE } from './postgresSql.ts';

const link = (src: string, dst: string, time: bigint, data = [1, 2, 3]): GraphLink => ({ src, dst, time, data: Uint8Array.from(data) });

describe('planWrite', () => {
  it('ADD/UPDATE inserts a missing link and counts it; overwrites a visible one without counting; a hidden one comes back and counts again', () => {
    expect(planWrite('upsert', undefined)).toEqual({ write: 'insert', countDelta: 1 });
    expect(planWrite('upsert', { visibility: VISIBLE })).toEqual({ write: 'update', countDelta: 0 });
    expect(planWrite('upsert', { visibility: HIDDEN })).toEqual({ write: 'update', countDelta: 1 });
  });

  it('DELETE hides a visible link and uncounts it; a hidden or missing link is left alone', () => {
    expect(planWrite('hide', { visibility: VISIBLE })).toEqual({ write: 'hide', countDelta: -1 });
    expect(planWrite('hide', { visibility: HIDDEN })).toEqual({ write: 'none', countDelta: 0 });
    expect(planWrite('hide', undefined)).toEqual({ write: 'none', countDelta: 0 });
  });
});

describe('loadBatchParams', () => {
  it('gives aligned link columns and, per source, as many counted links as the batch holds (a source split over batches adds up)', () => {
    const links = [link('a', 'b', 5n), link('a', 'c', 7n), link('d', 'a', 9n)];
    const p = loadBatchParams(links, 100n);
    expect(p.links).toEqual([LINK_TYPE, ['a', 'a', 'd'], ['b', 'c', 'a'], links.map((l) => l.data), ['5', '7', '9']]);
    expect(p.counts).toEqual([LINK_TYPE, ['a', 'd'], '100', [2, 1]]);
    const split = [loadBatchParams(links.slice(0, 1), 1n), loadBatchParams(links.slice(1), 1n)];
    expect(split.flatMap((b) => (b.counts[3] as number[]).map((n, i) => [(b.counts[1] as string[])[i], n]))).toEqual([['a', 1], ['a', 1], ['d', 1]]);
  });
});

describe('row mapping', () => {
  it('maps a row to the answer the other systems give: peer, bigint time, base64 data, visibility', () => {
    const data = Buffer.from([0xde, 0xad, 0xbe, 0xef]);
    expect(linkRow({ id2: 'x', time: 12n, data })).toEqual({ dst: 'x', time: 12n, data: base64(Uint8Array.from(data)) });
    expect(pointLink({ id2: 'x', time: 12n, data, visibility: HIDDEN }).visible).toBe(false);
    expect(pointLink({ id2: 'x', time: 12n, data, visibility: VISIBLE }).visible).toBe(true);
  });
});
