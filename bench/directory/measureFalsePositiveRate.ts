import { round } from '../ingest/stats.ts';

/**
 * The share of `probes` distinct never-split (namespace, id) pairs, each checked once, that `check`
 * answers "maybe" for: the filter's real false-positive rate (the timing loops cycle 4 096 keys,
 * too few to measure 1 %).
 */
export function measureFalsePositiveRate(check: (namespace: string, partitionId: string) => boolean, namespaces: readonly string[], probes: number): number {
  let positives = 0;
  for (let i = 0; i < probes; i++) if (check(namespaces[i % namespaces.length] as string, `never-split-${i}`)) positives++;
  return round(positives / probes, 5);
}
