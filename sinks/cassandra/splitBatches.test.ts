import { describe, expect, it } from 'vitest';
import { splitBatches, statementsBytes } from './splitBatches.ts';

const statement = (bytes: number) => ({ query: 'INSERT', params: ['id', new Uint8Array(bytes)] });

describe('splitBatches', () => {
  it('cuts at the statement count', () => {
    expect(splitBatches(Array.from({ length: 5 }, () => statement(1)), 2, 1e9).map((b) => b.length)).toEqual([2, 2, 1]);
  });

  it('cuts at the payload size, but never leaves a large statement out', () => {
    const sizes = splitBatches([statement(400), statement(400), statement(5000), statement(10)], 100, 1000).map((b) => b.length);
    expect(sizes).toEqual([2, 1, 1]);
  });

  it('counts a list parameter (a key IN ?) by its elements', () => {
    const keys = Array.from({ length: 100 }, () => new Uint8Array(50));
    expect(statementsBytes([{ query: 'DELETE', params: [1n, 'id', keys] }])).toBeGreaterThanOrEqual(100 * 50);
    expect(splitBatches([{ query: 'DELETE', params: [1n, 'id', keys] }, statement(10)], 100, 3000).map((b) => b.length)).toEqual([1, 1]);
  });

  it('returns no batches for no statements', () => {
    expect(splitBatches([], 10, 10)).toEqual([]);
  });
});
