import { describe, expect, it } from 'vitest';
import { splitBatches } from './splitBatches.ts';

const statement = (bytes: number) => ({ query: 'INSERT', params: ['id', new Uint8Array(bytes)] });

describe('splitBatches', () => {
  it('cuts at the statement count', () => {
    expect(splitBatches(Array.from({ length: 5 }, () => statement(1)), 2, 1e9).map((b) => b.length)).toEqual([2, 2, 1]);
  });

  it('cuts at the payload size, but never leaves a large statement out', () => {
    const sizes = splitBatches([statement(400), statement(400), statement(5000), statement(10)], 100, 1000).map((b) => b.length);
    expect(sizes).toEqual([2, 1, 1]);
  });

  it('returns no batches for no statements', () => {
    expect(splitBatches([], 10, 10)).toEqual([]);
  });
});
