import { describe, expect, it } from 'vitest';
import { createEdgeReader, createStorePartitionReader } from '../reads/index.ts';
import { defaultEdgestreamConfig } from '../schemas/config/edgestreamConfig.ts';
import type { EdgeMutation } from '../schemas/generated/EdgeMutation.ts';
import { createFanOutHarness } from '../test/support/model/createFanOutHarness.ts';
import { parsePrometheusText } from '../test/support/prometheusText.ts';
import { createMetricsRegistry } from './createMetricsRegistry.ts';
import { createReadMetrics } from './createReadMetrics.ts';

const config = defaultEdgestreamConfig();
const add = (src: string, dst: string, time: bigint, properties: EdgeMutation['properties'] = {}): EdgeMutation => ({
  mutation_id: `m-${src}-${dst}-${time}`,
  op: 'ADD_EDGE',
  edge_type: 'follows',
  src,
  dst,
  event_time: time,
  properties,
  property_keys: [],
});

async function setup() {
  const harness = createFanOutHarness(config);
  for (const e of [add('a', 'b', 1n, { since: 2024n }), add('c', 'b', 2n), add('d', 'b', 3n)]) await harness.process(e);
  const registry = createMetricsRegistry({ processMetrics: false });
  const metrics = createReadMetrics(registry);
  const reader = createEdgeReader({ partitions: createStorePartitionReader(harness.store), config, observer: metrics.observer });
  return { reader, scrape: async () => parsePrometheusText(await registry.metrics()) };
}

describe('createReadMetrics through the reader\'s observer', () => {
  it('times every call by operation and outcome and counts its PartitionReader queries', async () => {
    const { reader, scrape } = await setup();
    expect(await reader.edge('follows', 'a', 'b')).toMatchObject({ state: 'ACTIVE' });
    expect((await reader.in('follows', 'b', { limit: 10 })).items).toHaveLength(3);
    await expect(reader.edge('follows', '', 'b')).rejects.toThrow(/src/);
    await expect(reader.edge('nope', 'a', 'b')).rejects.toThrow();

    const s = await scrape();
    expect(s.type('edgestream_read_duration_seconds')).toBe('histogram');
    expect(s.sum('edgestream_read_duration_seconds_count', { operation: 'edge', outcome: 'ok' })).toBe(1);
    expect(s.sum('edgestream_read_duration_seconds_count', { operation: 'edge', outcome: 'invalid' })).toBe(2);
    expect(s.sum('edgestream_read_duration_seconds_count', { operation: 'in', outcome: 'ok' })).toBe(1);
    expect(s.sum('edgestream_read_duration_seconds_sum', { operation: 'in' })).toBeGreaterThan(0);
    // edge: one point read each (the invalid ones read nothing); a newest page of exact entries: one page of in_recent.
    expect(s.sum('edgestream_read_queries_sum', { operation: 'edge' })).toBe(1);
    expect(s.sum('edgestream_read_queries_sum', { operation: 'in' })).toBe(1);
    expect(s.sum('edgestream_read_queries_bucket', { operation: 'edge', le: '1' })).toBe(3);
  });

  it('counts property-cache lookups and hits of props with keys', async () => {
    const { reader, scrape } = await setup();
    expect(await reader.props('follows', 'a', 'b', ['since', 'muted'])).toEqual({ since: 2024n });
    expect(await reader.props('follows', 'a', 'b', ['since'])).toEqual({ since: 2024n }); // cached
    await reader.props('follows', 'a', 'b'); // the whole bag: not through the cache
    const s = await scrape();
    expect(s.sum('edgestream_cache_lookups_total', { cache: 'property' })).toBe(3);
    expect(s.sum('edgestream_cache_hits_total', { cache: 'property' })).toBe(1);
    // one getKeys for both keys, nothing for the cached one, one page for the whole bag
    expect(s.sum('edgestream_read_queries_sum', { operation: 'props' })).toBe(1 + 0 + 1);
  });
});
