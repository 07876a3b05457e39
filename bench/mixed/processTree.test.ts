import { describe, expect, it } from 'vitest';
import { descendantsIn } from './processTree.ts';

describe('descendantsIn', () => {
  it('lists children and grandchildren of the root, parents first, and nothing outside its tree', () => {
    const pairs = [
      [10, 1],
      [11, 10],
      [12, 10],
      [13, 11],
      [20, 1],
      [21, 20],
    ] as const;
    expect(descendantsIn(pairs, 10)).toEqual([11, 12, 13]);
    expect(descendantsIn(pairs, 20)).toEqual([21]);
    expect(descendantsIn(pairs, 13)).toEqual([]);
  });

  it('terminates on a cycle (a pid reused while /proc was read)', () => {
    expect(descendantsIn([[2, 3], [3, 2]], 2)).toEqual([3]);
  });
});
