import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRuntimeMetrics } from '../streams/runtime/runtimeMetrics.ts';
import { createLagPoller } from './createLagPoller.ts';
import { createMetricsRegistry } from './createMetricsRegistry.ts';
import { createReadMetrics } from './createReadMetrics.ts';
import { registerBackgroundMetrics } from './registerBackgroundMetrics.ts';
import { registerCacheMetrics } from './registerCacheMetrics.ts';
import { registerRecounterMetrics } from './registerRecounterMetrics.ts';
import { registerRuntimeMetrics } from './registerRuntimeMetrics.ts';
import { registerSplitDirectoryMetrics } from './registerSplitDirectoryMetrics.ts';

const DASHBOARD = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/grafana/edgestream.json');

interface Panel {
  readonly title: string;
  readonly targets?: readonly { readonly expr: string }[];
}

/** Every series a processor and a reader register, by metric family name and type. */
async function registeredFamilies(): Promise<Map<string, string>> {
  const registry = createMetricsRegistry();
  registerRuntimeMetrics(registry, [{ stage: 'fanout', metrics: () => createRuntimeMetrics().snapshot() }]);
  registerCacheMetrics(registry, { tombstone: () => ({ lookups: 0, hits: 0, entries: 0 }) });
  registerSplitDirectoryMetrics(registry, { stats: { records: 0, filterBits: 0, filterCapacity: 0, refreshes: 0, rebuilds: 0, logEntriesRead: 0, checks: 0, hits: 0, byStatus: {} } });
  createLagPoller(registry, { intervalMs: 1_000, poll: async () => [] });
  registerRecounterMetrics(registry, { stats: () => ({ rounds: 0, failedRounds: 0, recounted: 0, failed: 0, unsettled: 0, lastRoundMarks: 0, strandedIntents: 0 }) });
  registerBackgroundMetrics(registry, { stats: () => ({ limit: 1, inFlight: 0, queued: 0, canaryMs: 1, congestedProbes: 0, probes: 1 }) });
  createReadMetrics(registry);
  return new Map((await registry.getMetricsAsJSON()).map((m) => [m.name, String(m.type)]));
}

describe('the Grafana dashboard (docs/grafana/edgestream.json)', () => {
  it('queries only series the code registers, and charts every edgestream series', async () => {
    const families = await registeredFamilies();
    const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] };
    const used = new Set<string>();
    for (const panel of dashboard.panels) {
      for (const { expr } of panel.targets ?? []) {
        for (const [name] of expr.matchAll(/\b(?:edgestream|process|nodejs)_[a-z_]+\b/g)) {
          const family = families.has(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
          expect(families.has(family), `panel "${panel.title}" queries ${name}, which nothing registers`).toBe(true);
          used.add(family);
        }
      }
    }
    const unused = [...families.keys()].filter((n) => n.startsWith('edgestream_') && !used.has(n));
    expect(unused).toEqual([]);
  });
});
