import { describe, expect, it } from 'vitest';
import { firstPageDifference } from './sourceCheck.ts';

describe('the newest-page comparison', () => {
  const expected = [
    { dst: 'a', time: 30n },
    { dst: 'b', time: 20n },
  ];

  it('finds no difference in an equal page', () => {
    expect(firstPageDifference(expected, [{ peer: 'a', time: 30n }, { peer: 'b', time: 20n }])).toBeUndefined();
  });

  it('names the first position whose peer or edge time differs, or where one page ends early', () => {
    expect(firstPageDifference(expected, [{ peer: 'b', time: 20n }, { peer: 'a', time: 30n }])).toBe('position 0: expected a@30, read b@20');
    expect(firstPageDifference(expected, [{ peer: 'a', time: 30n }, { peer: 'b', time: 19n }])).toBe('position 1: expected b@20, read b@19');
    expect(firstPageDifference(expected, [{ peer: 'a', time: 30n }])).toBe('position 1: expected b@20, read the end');
    expect(firstPageDifference(expected, [...expected.map((e) => ({ peer: e.dst, time: e.time })), { peer: 'c', time: 1n }])).toBe('position 2: expected the end, read c@1');
  });
});
