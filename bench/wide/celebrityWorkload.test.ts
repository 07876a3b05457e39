import { describe, expect, it } from 'vitest';
import { zipfUser } from '../reads/zipfGraph.ts';
import { followerOf, isRemoved, type Celebrity } from './celebrityWorkload.ts';

const celebrity: Celebrity = { label: 'A', id: 'celebrity', edgeType: 'follows', links: 100_000, removeRatio: 0.5, seed: 1, baseTime: 0n };

/** Each id's position in key order (ids are ASCII, so string order is byte order). */
function keyRanks(ids: readonly string[]): Map<string, number> {
  return new Map([...ids].sort().map((id, rank) => [id, rank] as const));
}

describe('bench workloads: vertex ids in key order unrelated to creation order', () => {
  it('puts a celebrity\'s newest followers all over its link partition, not side by side', () => {
    const ids = Array.from({ length: celebrity.links }, (_, i) => followerOf(celebrity, i));
    expect(new Set(ids).size).toBe(ids.length);
    const ranks = keyRanks(ids);
    const newest = ids.slice(-50).map((id) => ranks.get(id) as number);
    // Sequential ids put the newest 50 at ranks 99 950…99 999 (a span of 49).
    expect(Math.max(...newest) - Math.min(...newest)).toBeGreaterThan(0.8 * celebrity.links);
  });

  it('removes followers independently of where their ids sort', () => {
    const ids = Array.from({ length: celebrity.links }, (_, i) => followerOf(celebrity, i));
    const ranks = keyRanks(ids);
    const removed = ids.filter((_, i) => isRemoved(celebrity, i)).map((id) => ranks.get(id) as number);
    const mean = removed.reduce((a, b) => a + b, 0) / removed.length;
    expect(removed.length / ids.length).toBeCloseTo(0.5, 1);
    expect(Math.abs(mean / celebrity.links - 0.5)).toBeLessThan(0.02);
  });

  it('gives Zipf users distinct ids whose key order is unrelated to rank', () => {
    const ids = Array.from({ length: 100_000 }, (_, rank) => zipfUser(rank));
    expect(new Set(ids).size).toBe(ids.length);
    const ranks = keyRanks(ids);
    const last = ids.slice(-50).map((id) => ranks.get(id) as number);
    expect(Math.max(...last) - Math.min(...last)).toBeGreaterThan(80_000);
  });
});
