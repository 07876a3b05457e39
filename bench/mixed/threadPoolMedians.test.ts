import { describe, expect, it } from 'vitest';
import type { BlockResult } from './requestBlock.ts';
import { threadPoolMedians } from './report.ts';

const block = (byPool?: Record<string, Record<string, number>>) => ({ ...(byPool ? { cpuMsPerOpByThreadPool: byPool } : {}) }) as unknown as BlockResult;

describe('threadPoolMedians', () => {
  it("takes each pool's median over the blocks, a pool missing from a block counting 0 there, largest first", () => {
    const medians = threadPoolMedians([
      block({ cassandra: { ReadStage: 0.1, 'Native-Transpor': 0.3 } }),
      block({ cassandra: { ReadStage: 0.2, 'Native-Transpor': 0.25, CompactionExecutor: 0.4 } }),
      block({ cassandra: { ReadStage: 0.3, 'Native-Transpor': 0.2 }, kafka: { 'data-plane-kafk': 0.05 } }),
    ]);
    expect(medians).toEqual({ cassandra: { 'Native-Transpor': 0.25, ReadStage: 0.2, CompactionExecutor: 0 }, kafka: { 'data-plane-kafk': 0 } });
    expect(Object.keys(medians['cassandra'] ?? {})).toEqual(['Native-Transpor', 'ReadStage', 'CompactionExecutor']);
  });

  it('is empty when no block split its servers by thread pool (a stack given by the environment)', () => {
    expect(threadPoolMedians([block(), block()])).toEqual({});
  });
});
