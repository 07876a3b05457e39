import { describe, expect, it } from 'vitest';
import { blockOrder } from './requestBlock.ts';

describe('blockOrder', () => {
  it('rotates the systems so each leads in turn; two systems alternate', () => {
    const three = ['edgestream', 'raw', 'postgres'];
    expect([1, 2, 3, 4].map((r) => blockOrder(three, r))).toEqual([
      ['edgestream', 'raw', 'postgres'],
      ['raw', 'postgres', 'edgestream'],
      ['postgres', 'edgestream', 'raw'],
      ['edgestream', 'raw', 'postgres'],
    ]);
    expect([1, 2, 3].map((r) => blockOrder(['edgestream', 'raw'], r))).toEqual([['edgestream', 'raw'], ['raw', 'edgestream'], ['edgestream', 'raw']]);
  });
});
