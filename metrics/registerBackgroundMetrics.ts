import type { Registry } from 'prom-client';
import type { BackgroundBudgetStats } from '../streams/runtime/index.ts';
import { snapshotCounter, snapshotGauge } from './snapshotMetrics.ts';

/** The background budget the recounter and the split chain share: its limit, its queue and the canary it follows. */
export function registerBackgroundMetrics(registry: Registry, budget: { stats(): BackgroundBudgetStats }): void {
  const gauge = (name: string, help: string, pick: (s: BackgroundBudgetStats) => number) =>
    snapshotGauge(registry, { name, help, labelNames: [], read: () => [{ labels: {}, value: pick(budget.stats()) }] });
  gauge('edgestream_background_limit', 'Background store calls (recount, split chain) allowed in flight now: halved while the canary read is slower than runtime.background.maxCanaryLatencyMs, grown by one while it is not.', (s) => s.limit);
  gauge('edgestream_background_in_flight', 'Background store calls in flight.', (s) => s.inFlight);
  gauge('edgestream_background_queued', 'Background store calls waiting for a slot (the background backlog the budget holds back).', (s) => s.queued);
  gauge('edgestream_background_canary_seconds', 'Round trip of the last canary point read (0 before the first).', (s) => (s.canaryMs ?? 0) / 1000);
  snapshotCounter(registry, {
    name: 'edgestream_background_canary_probes_total',
    help: 'Canary reads, by outcome (congested: slower than runtime.background.maxCanaryLatencyMs, or failed).',
    labelNames: ['outcome'],
    read: () => {
      const s = budget.stats();
      return [{ labels: { outcome: 'ok' }, value: s.probes - s.congestedProbes }, { labels: { outcome: 'congested' }, value: s.congestedProbes }];
    },
  });
}
