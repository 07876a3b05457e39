import { describe, expect, it } from 'vitest';
import { parsePrometheusText } from '../test/support/prometheusText.ts';
import { createLagPoller, type StageLag } from './createLagPoller.ts';
import { createMetricsRegistry } from './createMetricsRegistry.ts';

const lag = (stage: string, ...lags: number[]): StageLag => ({ stage, group: `p.${stage}`, topic: `p.${stage}-in`, partitions: lags.map((l, partition) => ({ partition, lag: l })) });

function setup() {
  const registry = createMetricsRegistry({ processMetrics: false });
  const answers: (readonly StageLag[] | Error)[] = [];
  let polls = 0;
  let now = 1_000_000;
  const errors: unknown[] = [];
  const poller = createLagPoller(registry, {
    intervalMs: 60_000,
    clock: () => now,
    onError: (e) => errors.push(e),
    poll: async () => {
      polls++;
      const next = answers.shift();
      if (next === undefined) throw new Error('no scripted answer');
      if (next instanceof Error) throw next;
      return next;
    },
  });
  const scrape = async () => parsePrometheusText(await registry.metrics());
  return { poller, answers, scrape, polls: () => polls, errors, advance: (ms: number) => (now += ms) };
}

describe('createLagPoller', () => {
  it('serves the last poll per group and partition, and the repair depth, without polling per scrape', async () => {
    const t = setup();
    t.answers.push([lag('fanout', 3, 0), lag('repair', 2, 5)]);
    await t.poller.pollOnce();
    for (let i = 0; i < 5; i++) await t.scrape(); // a scrape storm
    const s = await t.scrape();
    expect(t.polls()).toBe(1);
    expect(s.series('edgestream_consumer_lag', { stage: 'fanout' }).map((x) => [x.labels['partition'], x.value])).toEqual([
      ['0', 3],
      ['1', 0],
    ]);
    expect(s.series('edgestream_repair_queue_depth')).toEqual([{ name: 'edgestream_repair_queue_depth', labels: { group: 'p.repair' }, value: 7 }]);
    expect(s.sum('edgestream_consumer_lag_polled_timestamp_seconds')).toBe(1_000);
  });

  it('keeps the previous values on a failed poll, counts it, and reports it', async () => {
    const t = setup();
    t.answers.push([lag('fanout', 4)], new Error('broker down'));
    await t.poller.pollOnce();
    t.advance(5_000);
    await t.poller.pollOnce();
    const s = await t.scrape();
    expect(s.sum('edgestream_consumer_lag', { group: 'p.fanout' })).toBe(4);
    expect(s.sum('edgestream_consumer_lag_poll_errors_total')).toBe(1);
    expect(s.sum('edgestream_consumer_lag_polled_timestamp_seconds')).toBe(1_000); // stale: the alert's cue
    expect(String(t.errors[0])).toMatch(/broker down/);
  });

  it('drops series of partitions a later poll no longer reports, and shows no repair depth without a repair stage', async () => {
    const t = setup();
    t.answers.push([lag('fanout', 1, 1, 1)], [lag('fanout', 0)]);
    await t.poller.pollOnce();
    await t.poller.pollOnce();
    const s = await t.scrape();
    expect(s.series('edgestream_consumer_lag').map((x) => x.labels['partition'])).toEqual(['0']);
    expect(s.series('edgestream_repair_queue_depth')).toEqual([]);
  });

  it('shows no lag series before the first poll, and a poll time of 0 (never)', async () => {
    const t = setup();
    const s = await t.scrape();
    expect(s.series('edgestream_consumer_lag')).toEqual([]);
    expect(s.series('edgestream_consumer_lag_polled_timestamp_seconds').map((x) => x.value)).toEqual([0]);
  });
});
