import { describe, expect, it } from 'vitest';
import { defaultEdgestreamConfig, parseEdgestreamConfig } from './edgestreamConfig.ts';

describe('parseEdgestreamConfig', () => {
  it('fills defaults', () => {
    const c = defaultEdgestreamConfig();
    expect(c.topics.prefix).toBe('edgestream.');
    expect(c.cassandra.keyspace).toBe('edgestream');
    expect(c.limits.maxVertexIdBytes).toBe(256);
    expect(c.edgeTypes.map((t) => t.name)).toEqual(['follows', 'likes']);
  });

  it('names the bad field', () => {
    expect(() => parseEdgestreamConfig({ edgeTypes: [{ name: 'Follows' }] })).toThrow(/edgeTypes\.0\.name: must be a lowercase identifier/);
    expect(() => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], runtime: { writeConcurrency: 0 } })).toThrow(/runtime\.writeConcurrency/);
    expect(() => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], bogus: 1 })).toThrow(/bogus/);
  });

  it('rejects duplicate and double-underscore edge types', () => {
    expect(() => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }, { name: 'a' }] })).toThrow(/duplicate edge type 'a'/);
    expect(() => parseEdgestreamConfig({ edgeTypes: [{ name: 'a__b' }] })).toThrow(/edgeTypes\.0\.name/);
  });

  it('requires the cascade settle time to cover twice the write-retry budget plus the tombstone cache ttl', () => {
    const cfg = (runtime: Record<string, number>) => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], runtime });
    expect(cfg({ writeRetryBudgetMs: 1_000, tombstoneCacheTtlMs: 300, cascadeSettleMs: 2_500 }).runtime.tombstoneCacheTtlMs).toBe(300);
    // The old rule (budget + ttl) accepted this: the tombstone's own write may land a budget after its stamp.
    expect(() => cfg({ writeRetryBudgetMs: 1_000, tombstoneCacheTtlMs: 300, cascadeSettleMs: 1_500 })).toThrow(
      /runtime\.cascadeSettleMs: must be greater than 2 × runtime\.writeRetryBudgetMs \+ runtime\.tombstoneCacheTtlMs/,
    );
  });

  it('declares read budgets with defaults and names a bad one', () => {
    const c = defaultEdgestreamConfig();
    expect(c.reads).toEqual({
      maxRows: 200_000,
      maxQueries: 20_000,
      deadlineMs: 10_000,
      maxCursorBytes: 2_048,
      traversal: { perHopCap: 1_000, concurrencyPerReplicaSet: 8, maxInFlight: 64 },
    });
    const cfg = (reads: unknown) => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], reads });
    expect(() => cfg({ maxRows: 0 })).toThrow(/reads\.maxRows: /);
    expect(() => cfg({ deadlineMs: 1.5 })).toThrow(/reads\.deadlineMs: /);
    expect(() => cfg({ maxCursorBytes: 10 })).toThrow(/reads\.maxCursorBytes: /);
    expect(() => cfg({ traversal: { perHopCap: 100_001 } })).toThrow(/reads\.traversal\.perHopCap: /);
    expect(cfg({ maxRows: 5 }).reads.maxRows).toBe(5);
  });
});
