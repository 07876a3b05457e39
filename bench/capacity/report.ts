/**
 * Text and Markdown tables of capacity estimates: one estimate in full, the sweep's headline
 * table, and the calibration with each figure's source.
 */
import { calibrationFigures, type Calibration } from './calibration.ts';
import type { CapacityEstimate } from './capacityModel.ts';

/** 1 234 → "1.2 K", 1.5e11 → "150 B": counts at a glance (B = 10^9, T = 10^12). */
export function count(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const units: [number, string][] = [[1e12, 'T'], [1e9, 'B'], [1e6, 'M'], [1e3, 'K']];
  for (const [size, unit] of units) if (Math.abs(n) >= size) return `${trim(n / size)} ${unit}`;
  return trim(n);
}

/** Bytes in decimal units (disk vendors' TB). */
export function bytes(n: number): string {
  const units: [number, string][] = [[1e15, 'PB'], [1e12, 'TB'], [1e9, 'GB'], [1e6, 'MB'], [1e3, 'kB']];
  for (const [size, unit] of units) if (Math.abs(n) >= size) return `${trim(n / size)} ${unit}`;
  return `${trim(n)} B`;
}

function trim(x: number): string {
  const digits = Math.abs(x) >= 100 ? 0 : Math.abs(x) >= 10 ? 1 : 2;
  return String(Number(x.toFixed(digits)));
}

export function table(header: readonly string[], rows: readonly (readonly string[])[], markdown: boolean): string {
  if (markdown) return [header, header.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  return [header, ...rows].map((r) => r.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()).join('\n');
}

/** One estimate, every section. */
export function formatEstimate(e: CapacityEstimate, markdown: boolean): string {
  const s = e.scale;
  const hop = (h: CapacityEstimate['traversal']['singleNode']) => h.map((x, i) => `hop ${i + 1}: ${count(x.idsRead)} ids, ${count(x.queries)} queries, ${count(x.rows)} rows`).join('; ');
  const z = e.sizing;
  return [
    `${count(s.vertices)} vertices, ${count(s.edges)} edges, Zipf in ${s.zipfIn} / out ${s.zipfOut}; ingest ${count(s.ingestLinksPerSecond)} links/s, ${count(s.opsPerSecond)} mixed ops/s; one edge type`,
    `degrees: mean ${trim(e.degrees.meanOut)}, largest in ${count(e.degrees.largestIn)}, largest out ${count(e.degrees.largestOut)}, at the far end of an edge ${count(e.degrees.reachedDegree)}`,
    '',
    table(
      ['namespace', 'partitions', 'rows', 'logical bytes', 'largest partition', 'wide (≥ rows)', 'splits', 'buckets', 'largest bucket'],
      e.namespaces.map((n) => [
        n.name,
        count(n.partitions),
        count(n.rows),
        bytes(n.logicalBytes),
        bytes(n.largestPartitionBytes),
        n.splits ? count(n.splits.thresholdRows) : '–',
        n.splits ? count(n.splits.widePartitions) : '–',
        n.splits ? count(n.splits.buckets) : '–',
        n.splits ? bytes(n.splits.largestBucketBytes) : '–',
      ]),
      markdown,
    ),
    '',
    `splits ${count(e.totals.splits)} (${count(e.totals.buckets)} buckets, ${count(e.totals.rowsInWide)} rows copied); largest partition's chain ${trim(e.split.largestPartitionSeconds / 60)} min, all wide partitions ${count(e.split.allWideChainHours)} chain-hours at the measured rate`,
    `split directory per process: Bloom filter ${bytes(z.directoryBloomBytes)}, heap ${bytes(z.directoryHeapBytes)}, full reload ${trim(z.directoryReloadSeconds)} s; every process's reloads read ${bytes(z.directoryReloadBytesPerSecond)}/s of wide_rows`,
    `degree_dirty: ${count(e.degreeDirtyWritesPerShardPerSecond)} cell writes/s on each of its 16 partitions`,
    `Kafka: ${count(z.inputPartitions)} input partitions, ${count(z.kafkaBrokers)} brokers; processors: ${count(z.processorInstances)} instances; servers: ${count(z.serverInstances)}`,
    `Cassandra at RF 3: ${count(z.cassandraNodes)} nodes (CPU ${count(z.cassandraNodesForCpu)}, disk ${count(z.cassandraNodesForDisk)}), ${count(z.cassandraCores)} cores busy, ${bytes(z.diskBytes)} on disk (${bytes(z.diskBytesPerNode)}/node)`,
    `traversal (${s.hops} hops, cap ${s.perHopCap}): one node — ${hop(e.traversal.singleNode)}`,
    `                      on ${count(z.cassandraNodes)} nodes — ${hop(e.traversal.cluster)}`,
    ...e.warnings.map((w) => `WARNING: ${w}`),
  ].join('\n');
}

/** The headline table: one row per estimate. */
export function formatSweep(estimates: readonly CapacityEstimate[], markdown: boolean): string {
  return table(
    ['vertices', 'edges', 'partitions', 'largest in-partition', 'splits', 'buckets', 'largest bucket', 'directory', 'input partitions', 'processors', 'Cassandra nodes (cpu/disk)', 'disk RF 3', '2-hop queries (1 node → cluster)'],
    estimates.map((e) => {
      const t = e.sizing;
      const last = (h: readonly { queries: number }[]) => count(h.reduce((a, x) => a + x.queries, 0));
      const inLinks = e.namespaces.find((n) => n.name === 'T_in');
      return [
        count(e.scale.vertices),
        count(e.scale.edges),
        count(e.totals.partitions),
        bytes(inLinks?.largestPartitionBytes ?? 0),
        count(e.totals.splits),
        count(e.totals.buckets),
        bytes(inLinks?.splits?.largestBucketBytes ?? 0),
        bytes(t.directoryHeapBytes),
        count(t.inputPartitions),
        count(t.processorInstances),
        `${count(t.cassandraNodes)} (${count(t.cassandraNodesForCpu)}/${count(t.cassandraNodesForDisk)})`,
        bytes(t.diskBytes),
        `${last(e.traversal.singleNode)} → ${last(e.traversal.cluster)}`,
      ];
    }),
    markdown,
  );
}

export function formatCalibration(c: Calibration, markdown: boolean): string {
  return table(
    ['input', 'value', 'unit', 'kind', 'source'],
    calibrationFigures(c).map(([name, f]) => [name, trim(f.value), f.unit, f.measured ? 'measured' : 'assumed', f.basis]),
    markdown,
  );
}
