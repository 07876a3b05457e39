import { describe, expect, it } from 'vitest';
import { parsePartitionOffsets, parseTimeFlag } from './parsePartitionOffsets.ts';

describe('parsePartitionOffsets', () => {
  it('reads one offset for every partition', () => {
    expect(parsePartitionOffsets('--from-offset', '42')).toEqual({ all: 42n, byPartition: new Map() });
  });
  it('reads per-partition offsets', () => {
    expect(parsePartitionOffsets('--from-offset', '0:5, 2:7').byPartition).toEqual(new Map([[0, 5n], [2, 7n]]));
  });
  it('names the flag on bad input', () => {
    expect(() => parsePartitionOffsets('--to-offset', '0-5')).toThrow(/--to-offset: expected/);
  });
});

describe('parseTimeFlag', () => {
  it('accepts ISO times and epoch millis', () => {
    expect(parseTimeFlag('--from-time', '2026-01-01T00:00:00Z')).toBe(Date.UTC(2026, 0, 1));
    expect(parseTimeFlag('--from-time', '1700000000000')).toBe(1_700_000_000_000);
  });
  it('names the flag on bad input', () => {
    expect(() => parseTimeFlag('--to-time', 'yesterday')).toThrow(/--to-time/);
  });
});
