import { describe, expect, it } from 'vitest';
import { mix32, scrambledId } from './scrambledId.ts';

describe('scrambledId', () => {
  it('is <prefix>-<8 hex of mix32(i, seed)>-<i>: distinct for distinct i', () => {
    expect(scrambledId('fan', 7, 0)).toBe(`fan-${mix32(7, 0).toString(16).padStart(8, '0')}-7`);
    const ids = Array.from({ length: 30_000 }, (_, i) => scrambledId('fan', i, 0));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sorts the last ids made (the demo\'s newest followers) all over the key order, not side by side', () => {
    const ids = Array.from({ length: 30_000 }, (_, i) => scrambledId('fan', i, 0));
    const rank = new Map([...ids].sort().map((id, r) => [id, r] as const));
    const newest = ids.slice(-50).map((id) => rank.get(id) as number);
    // `fan${i}` put them at adjacent ranks (fan29950 … fan29999).
    expect(Math.max(...newest) - Math.min(...newest)).toBeGreaterThan(24_000);
  });
});
