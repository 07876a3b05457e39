/**
 * Reads the capacity model's measured inputs from the committed benchmark results
 * (bench/results/*.json) and adds the assumed ones. Each measured figure names the file, the
 * commit the run was made at and the field, so the model moves when a benchmark is re-run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { assumed, measured, type Calibration, type Figure } from './calibration.ts';

type Json = Record<string, unknown>;

interface Result {
  readonly file: string;
  readonly commit: string;
  readonly json: Json;
}

function readResult(resultsDir: string, file: string): Result {
  const full = path.join(resultsDir, file);
  let json: Json;
  try {
    json = JSON.parse(fs.readFileSync(full, 'utf8')) as Json;
  } catch (err) {
    throw new Error(`capacity: cannot read the benchmark result ${full}: ${(err as Error).message}`);
  }
  const code = json['code'] as { commit?: string } | undefined;
  const commit = code?.commit ?? (json['commit'] as string | undefined) ?? 'unknown';
  return { file, commit: commit.slice(0, 7), json };
}

/** The number at a dotted path of a result; an error names the file and the path. */
function at(r: Result, dotted: string): number {
  let v: unknown = r.json;
  for (const part of dotted.split('.')) v = v === null || typeof v !== 'object' ? undefined : (v as Json)[part];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`capacity: bench/results/${r.file} has no number at ${dotted}`);
  return v;
}

const basis = (r: Result, field: string) => `bench/results/${r.file} @ ${r.commit}: ${field}`;

function fig(r: Result, dotted: string, unit: string, scale = 1, note = ''): Figure {
  return measured(at(r, dotted) * scale, unit, basis(r, dotted) + note);
}

interface SplitRecord { readonly strategy: string; readonly rows: number; readonly bytes: number }
interface SplitResult { readonly namespace: string; readonly record: SplitRecord; readonly seconds: { plan: number; copy: number; verify: number } }

/** The largest split of a strategy in bench:wide: seconds of plan + copy + verify per million rows, and its record's size. */
function splitFigures(r: Result, strategy: 'hash' | 'range'): { seconds: Figure; rowBytes: Figure; recordBytes: Figure } {
  const splits = ((r.json['split'] as { partitions?: SplitResult[] } | undefined)?.partitions ?? []).filter((p) => p.record.strategy === strategy);
  const biggest = splits.sort((a, b) => b.record.rows - a.record.rows)[0];
  if (!biggest) throw new Error(`capacity: bench/results/${r.file} has no ${strategy} split`);
  const { plan, copy, verify } = biggest.seconds;
  const field = `split.partitions[${biggest.namespace}, ${biggest.record.rows} rows]`;
  return {
    seconds: measured(((plan + copy + verify) * 1e6) / biggest.record.rows, 's per 1 M rows', basis(r, `${field}.seconds plan+copy+verify`)),
    rowBytes: measured(biggest.record.bytes / biggest.record.rows, 'B/row', basis(r, `${field}.record bytes/rows`)),
    recordBytes: measured(JSON.stringify(biggest.record).length, 'B', basis(r, `${field}.record as JSON`)),
  };
}

export function loadCalibration(resultsDir: string, profile: 'mixed' | 'ingest'): Calibration {
  const ingest = readResult(resultsDir, 'ingest-latest.json');
  const mixed = readResult(resultsDir, 'mixed-latest.json');
  const hot = readResult(resultsDir, 'hot-latest.json');
  const wide = readResult(resultsDir, 'wide-latest.json');
  const directory = readResult(resultsDir, 'directory-latest.json');

  const rowsPerEvent = at(ingest, 'summary.rowsPerRepeat') / at(ingest, 'summary.eventsPerRepeat');
  const perLink = (who: string): Figure =>
    profile === 'mixed'
      ? fig(mixed, `summary.load.cpuMicrosPerLink.${who}`, 'µs CPU/link')
      : fig(ingest, `summary.medians.pipelineCpuMicrosPerRow.${who}`, 'µs CPU/link', rowsPerEvent, ` × ${rowsPerEvent} rows/event`);
  const hash = splitFigures(wide, 'hash');
  const range = splitFigures(wide, 'range');
  const dirSizes = (directory.json['sizes'] as { records: number; filterBytes: number; reloadMs: number[]; directoryHeapMiB: number }[]) ?? [];
  const largest = [...dirSizes].sort((a, b) => b.records - a.records)[0];
  if (!largest) throw new Error(`capacity: bench/results/${directory.file} has no sizes`);
  const reloadMs = [...largest.reloadMs].sort((a, b) => a - b)[Math.floor(largest.reloadMs.length / 2)] ?? 0;
  const dirField = `sizes[records=${largest.records}]`;

  return {
    profile,
    processorCpuMicrosPerLink: perLink('processor'),
    cassandraCpuMicrosPerLink: perLink('cassandra'),
    kafkaCpuMicrosPerLink: perLink('kafka'),
    cassandraWritesPerLink: fig(ingest, 'summary.medians.cassandraWritesPerEvent', 'statements/link'),
    cassandraReadsPerLink: fig(ingest, 'summary.medians.cassandraReadsPerEvent', 'statements/link'),
    linksPerSecondPerInputPartition: fig(hot, 'summary.hot.linksPerSecond.median', 'links/s'),
    cassandraCpuMicrosPerOp: fig(mixed, 'summary.edgestream.cpuMsPerOp.cassandra', 'µs CPU/op', 1000),
    serverCpuMicrosPerOp: fig(mixed, 'summary.edgestream.cpuMsPerOp.server', 'µs CPU/op', 1000),
    cassandraWritesPerOp: fig(mixed, 'summary.edgestream.cassandraWritesPerOp', 'statements/op'),
    cassandraReadsPerOp: fig(mixed, 'summary.edgestream.cassandraReadsPerOp', 'statements/op'),
    linkRowBytes: hash.rowBytes,
    recentRowBytes: range.rowBytes,
    splitSecondsPerMillionRowsHash: hash.seconds,
    splitSecondsPerMillionRowsRange: range.seconds,
    wideRowRecordBytes: range.recordBytes,
    bloomBytesPerSplit: measured(largest.filterBytes / largest.records, 'B/split', basis(directory, `${dirField}.filterBytes/records`)),
    directoryReloadMicrosPerSplit: measured((reloadMs * 1000) / largest.records, 'µs/split', basis(directory, `${dirField}.reloadMs median/records`)),
    directoryHeapMiB: measured(largest.directoryHeapMiB, 'MiB', basis(directory, `${dirField}.directoryHeapMiB (record cache primed with at most 10 000)`)),
    ...assumedInputs(),
  };
}

/** The inputs no benchmark here measures. */
export function assumedInputs() {
  return {
    propsRowBytes: assumed(24, 'B/row', 'one short property: key 0x00‖dir‖name (~8 B) + typed value (~16 B); bench:ingest writes one "via" per edge'),
    degreesRowBytes: assumed(19, 'B/row', 'key "type␀dir" (11 B for "follows") + u64 count'),
    partitionOverheadBytes: assumed(60, 'B/partition', 'partition key (~20 B id) + partition header and index entry'),
    onDiskPerLogicalByte: assumed(1.3, '× logical', 'Cassandra row headers, clustering prefix and timestamps (~10–15 B/row) less LZ4 compression of repetitive ids; not measured here'),
    cassandraCoresPerNode: assumed(16, 'cores', 'a common Cassandra node size (e.g. 16 vCPU, 128 GiB)'),
    cassandraDiskBytesPerNode: assumed(4e12, 'B', '4 TB local NVMe per node'),
    maxDiskFill: assumed(0.5, 'share', 'headroom for compaction (STCS can need 2×), repair streaming and growth'),
    targetCpuUtilization: assumed(0.6, 'share', 'room for a node or an instance to fail and for bursts'),
    processorCoresPerInstance: assumed(1, 'cores', 'one Node.js event loop per processor; the bench child used 0.7 cores'),
    kafkaCoresPerBroker: assumed(16, 'cores', 'broker size; CPU scaled by the topic replication factor 3'),
    vnodesPerNode: assumed(16, 'tokens', 'Cassandra 5 default num_tokens: the replica sets a frontier spreads over'),
  } satisfies Partial<Calibration>;
}
