import { describe, expect, it } from 'vitest';
import { packRequests } from './readCellsAt.ts';

const asked = (partitions: Record<string, string[]>) => new Map(Object.entries(partitions).map(([id, keys]) => [id, new Map(keys.map((k) => [k, new TextEncoder().encode(k)]))]));
const shape = (requests: ReturnType<typeof packRequests>) => requests.map((r) => `${r.ids.join(',')}|${[...r.keys.keys()].join(',')}`);
const limits = { readIdsPerRequest: 3, readCellsPerRequest: 6, readKeysPerRequest: 4 };

describe('packRequests', () => {
  it('packs partitions of one key up to readIdsPerRequest ids', () => {
    expect(shape(packRequests(asked({ a: ['t'], b: ['t'], c: ['t'], d: ['t'] }), limits))).toEqual(['a,b,c|t', 'd|t']);
  });

  it('packs partitions of different keys only while ids × keys stays within readCellsPerRequest', () => {
    // a,b: 2 ids × 2 keys = 4; adding c would make 3 × 3 = 9 > 6
    expect(shape(packRequests(asked({ a: ['x'], b: ['y'], c: ['z'], d: ['z'] }), limits))).toEqual(['a,b|x,y', 'c,d|z']);
  });

  it('gives a partition asked for more keys than one request holds requests of its own, and keeps every key', () => {
    const requests = packRequests(asked({ a: ['t'], w: ['1', '2', '3', '4', '5', '6'], b: ['t'] }), limits);
    expect(shape(requests)).toEqual(['a,b|t', 'w|1,2,3,4', 'w|5,6']);
  });

  it('never builds a request above the limits unless one partition alone needs it', () => {
    const many = asked(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}`, [`k${i % 7}`, `k${(i * 3) % 5}`]])));
    const requests = packRequests(many, limits);
    for (const r of requests) expect(r.ids.length === 1 || (r.ids.length <= 3 && r.ids.length * r.keys.size <= 6)).toBe(true);
    const pairs = new Set(requests.flatMap((r) => r.ids.flatMap((id) => [...r.keys.keys()].map((k) => `${id}/${k}`))));
    for (const [id, keys] of many) for (const k of keys.keys()) expect(pairs.has(`${id}/${k}`)).toBe(true);
  });
});
