import { describe, expect, it } from 'vitest';
import { createRuntimeMetrics } from '../streams/runtime/runtimeMetrics.ts';
import { createLinkCache } from '../streams/runtime/store/linkCache.ts';
import { parsePrometheusText } from '../test/support/prometheusText.ts';
import { createMetricsRegistry } from './createMetricsRegistry.ts';
import { registerBackgroundMetrics } from './registerBackgroundMetrics.ts';
import { linkCacheAsCacheStats, registerCacheMetrics } from './registerCacheMetrics.ts';
import { registerRecounterMetrics } from './registerRecounterMetrics.ts';
import { registerRuntimeMetrics } from './registerRuntimeMetrics.ts';
import { registerSplitDirectoryMetrics } from './registerSplitDirectoryMetrics.ts';

const scrape = async (registry: ReturnType<typeof createMetricsRegistry>) => parsePrometheusText(await registry.metrics());

describe('processor metric wiring over the runtime\'s pure counters', () => {
  it('exposes each stage\'s events by outcome and DLQ records by reason, and moves with the counters', async () => {
    const fanout = createRuntimeMetrics();
    const cascade = createRuntimeMetrics();
    const registry = createMetricsRegistry({ processMetrics: false });
    registerRuntimeMetrics(registry, [
      { stage: 'fanout', metrics: () => fanout.snapshot() },
      { stage: 'cascade', metrics: () => cascade.snapshot() },
    ]);
    fanout.count('records', 5);
    fanout.count('done', 3);
    fanout.count('sentToRepair');
    fanout.deadLettered('invalid');
    fanout.count('mutations', 12);
    fanout.count('chunks', 2);
    cascade.count('done', 2);

    const first = await scrape(registry);
    expect(first.type('edgestream_events_total')).toBe('counter');
    expect(first.series('edgestream_events_total', { stage: 'fanout' }).map((s) => [s.labels['outcome'], s.value])).toEqual([
      ['done', 3],
      ['repair', 1],
      ['dead_letter', 1],
    ]);
    expect(first.sum('edgestream_events_total', { stage: 'cascade' })).toBe(2);
    expect(first.series('edgestream_dlq_records_total').map((s) => s.labels)).toEqual([{ stage: 'fanout', reason: 'invalid' }]);
    expect(first.sum('edgestream_store_mutations_total', { stage: 'fanout' })).toBe(12);
    expect(first.type('edgestream_chunks_total')).toBe('counter');
    expect(first.sum('edgestream_chunks_total', { stage: 'fanout' })).toBe(2);

    fanout.count('done', 4);
    fanout.deadLettered('undecodable');
    fanout.deadLettered('invalid');
    const second = await scrape(registry);
    expect(second.sum('edgestream_events_total', { stage: 'fanout', outcome: 'done' })).toBe(7);
    expect(second.sum('edgestream_dlq_records_total', { stage: 'fanout', reason: 'invalid' })).toBe(2);
    expect(second.sum('edgestream_dlq_records_total', { stage: 'fanout', reason: 'undecodable' })).toBe(1);
    expect(second.sum('edgestream_events_total', { stage: 'fanout', outcome: 'dead_letter' })).toBe(3);
  });

  it('reads the link cache\'s suppressions as hits, and adds caches registered later to the same series', async () => {
    const cache = createLinkCache({ entries: 10 });
    const registry = createMetricsRegistry({ processMetrics: false });
    registerCacheMetrics(registry, { link: () => linkCacheAsCacheStats(cache.stats()) });
    cache.record('k', 5n, Uint8Array.of(1));
    cache.dominates('k', 4n, Uint8Array.of(1)); // older: dropped
    cache.dominates('k', 6n, Uint8Array.of(1)); // newer: written
    cache.dominates('other', 1n, Uint8Array.of(1));
    let tombstone = { lookups: 4, hits: 3, entries: 2 };
    registerCacheMetrics(registry, { tombstone: () => tombstone });
    expect(() => registerCacheMetrics(registry, { link: () => tombstone })).toThrow(/'link' is already registered/);

    const s = await scrape(registry);
    expect(s.sum('edgestream_cache_lookups_total', { cache: 'link' })).toBe(3);
    expect(s.sum('edgestream_cache_hits_total', { cache: 'link' })).toBe(1);
    expect(s.sum('edgestream_cache_entries', { cache: 'link' })).toBe(1);
    expect(s.sum('edgestream_cache_hits_total', { cache: 'tombstone' })).toBe(3);
    tombstone = { lookups: 10, hits: 8, entries: 2 };
    expect((await scrape(registry)).sum('edgestream_cache_lookups_total', { cache: 'tombstone' })).toBe(10);
  });

  it('reports Bloom checks and positives and every split status, 0 where none', async () => {
    const stats = { records: 4, filterBits: 64, filterCapacity: 64, refreshes: 1, rebuilds: 1, logEntriesRead: 0, checks: 10, hits: 2, byStatus: { SPLITTING: 1, COMPLETED: 3 } };
    const registry = createMetricsRegistry({ processMetrics: false });
    registerSplitDirectoryMetrics(registry, { stats });
    const s = await scrape(registry);
    expect(s.sum('edgestream_split_directory_checks_total')).toBe(10);
    expect(s.sum('edgestream_split_directory_positives_total')).toBe(2);
    expect(Object.fromEntries(s.series('edgestream_split_partitions').map((x) => [x.labels['status'], x.value]))).toEqual({
      PLANNING: 0,
      PLANNED: 0,
      SPLITTING: 1,
      SPLIT: 0,
      COMPLETED: 3,
      FAILED: 0,
    });
  });

  it('reads the recounter\'s rounds, targets and last round from its stats', async () => {
    let stats = { rounds: 2, failedRounds: 1, recounted: 30, failed: 7, unsettled: 5, lastRoundMarks: 10_000, strandedIntents: 3 };
    const registry = createMetricsRegistry({ processMetrics: false });
    registerRecounterMetrics(registry, { stats: () => stats });
    const s = await scrape(registry);
    expect(s.sum('edgestream_recount_rounds_total', { outcome: 'failed' })).toBe(1);
    expect(s.sum('edgestream_recount_targets_total', { outcome: 'recounted' })).toBe(30);
    expect(s.sum('edgestream_recount_targets_total', { outcome: 'unsettled' })).toBe(5);
    expect(s.sum('edgestream_recount_targets_total', { outcome: 'failed' })).toBe(2);
    expect(s.sum('edgestream_recount_last_round_marks')).toBe(10_000);
    expect(s.sum('edgestream_recount_stranded_intents_total')).toBe(3);
    stats = { ...stats, rounds: 3, lastRoundMarks: 4 };
    expect((await scrape(registry)).sum('edgestream_recount_last_round_marks')).toBe(4);
  });

  it('reads the background budget\'s limit, queue and canary from its stats', async () => {
    let stats: { limit: number; inFlight: number; queued: number; canaryMs: number | undefined; congestedProbes: number; probes: number } = { limit: 8, inFlight: 3, queued: 0, canaryMs: undefined, congestedProbes: 0, probes: 0 };
    const registry = createMetricsRegistry({ processMetrics: false });
    registerBackgroundMetrics(registry, { stats: () => stats });
    let s = await scrape(registry);
    expect(s.sum('edgestream_background_limit')).toBe(8);
    expect(s.sum('edgestream_background_in_flight')).toBe(3);
    expect(s.sum('edgestream_background_canary_seconds')).toBe(0);
    stats = { limit: 2, inFlight: 2, queued: 40, canaryMs: 25, congestedProbes: 3, probes: 10 };
    s = await scrape(registry);
    expect(s.sum('edgestream_background_limit')).toBe(2);
    expect(s.sum('edgestream_background_queued')).toBe(40);
    expect(s.sum('edgestream_background_canary_seconds')).toBeCloseTo(0.025);
    expect(s.sum('edgestream_background_canary_probes_total', { outcome: 'congested' })).toBe(3);
    expect(s.sum('edgestream_background_canary_probes_total', { outcome: 'ok' })).toBe(7);
  });
});
