import { describe, expect, it } from 'vitest';
import { defaultEdgestreamConfig, parseEdgestreamConfig, splitMirrorBarrierMs } from './edgestreamConfig.ts';

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
    expect(cfg({ writeRetryBudgetMs: 1_000, writeLandingMarginMs: 0, tombstoneCacheTtlMs: 300, cascadeSettleMs: 2_500 }).runtime.tombstoneCacheTtlMs).toBe(300);
    // The old rule (budget + ttl) accepted this: the tombstone's own write may land a budget after its stamp.
    expect(() => cfg({ writeRetryBudgetMs: 1_000, writeLandingMarginMs: 0, tombstoneCacheTtlMs: 300, cascadeSettleMs: 1_500 })).toThrow(
      /runtime\.cascadeSettleMs: must be greater than 2 × \(runtime\.writeRetryBudgetMs \+ runtime\.writeLandingMarginMs\) \+ runtime\.tombstoneCacheTtlMs/,
    );
  });

  it('counts the time a write may still land after the retry budget (the server\'s write timeout and pauses) twice in the cascade settle rule', () => {
    const cfg = (runtime: Record<string, number>) => parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], runtime });
    // 2 × (1000 + 2000 default margin) + 300 = 6300: the old rule (2 × budget + ttl = 2300) accepted 2500.
    expect(() => cfg({ writeRetryBudgetMs: 1_000, tombstoneCacheTtlMs: 300, cascadeSettleMs: 2_500 })).toThrow(/runtime\.cascadeSettleMs: .*writeLandingMarginMs/);
    expect(cfg({ writeRetryBudgetMs: 1_000, tombstoneCacheTtlMs: 300, cascadeSettleMs: 6_301 }).runtime.writeLandingMarginMs).toBe(2_000);
    expect(() => cfg({ writeRetryBudgetMs: 1_000, tombstoneCacheTtlMs: 300, writeLandingMarginMs: 500, cascadeSettleMs: 3_300 })).toThrow(/runtime\.cascadeSettleMs/);
    expect(cfg({ writeRetryBudgetMs: 1_000, tombstoneCacheTtlMs: 300, writeLandingMarginMs: 500, cascadeSettleMs: 3_301 }).runtime.cascadeSettleMs).toBe(3_301);
  });

  it('waits out the retry budget and the landing margin before the splitter copies', () => {
    const c = parseEdgestreamConfig({ edgeTypes: [{ name: 'a' }], runtime: { writeRetryBudgetMs: 1_000, writeLandingMarginMs: 3_000, cascadeSettleMs: 30_000 }, wide: { directoryRefreshMs: 500 } });
    expect(splitMirrorBarrierMs(c)).toBe(2 * 500 + 1_000 + 3_000);
  });
});
