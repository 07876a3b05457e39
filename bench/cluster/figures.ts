import type { IngestSummary } from '../ingest/main.ts';
import type { ReadsBenchResult } from '../reads/report.ts';
import type { WideBenchResult } from '../wide/report.ts';
import type { ClusterBench } from './args.ts';

/**
 * One figure of one child run: its value and, where the bench measured one, its reference —
 * the raw cassandra-driver doing the same work in the same run (bench:ingest's ceilings,
 * bench:reads' raw reads), or for bench:wide the same read before the split.
 */
export interface Figure {
  readonly key: string;
  readonly label: string;
  readonly unit: string;
  readonly value: number | undefined;
  readonly ref?: number | undefined;
}

/** What the comparison reads of a bench:ingest result (its summary medians). */
export interface IngestSource {
  readonly summary: {
    readonly medians: {
      readonly edgesPerSecond: number | undefined;
      readonly rowsPerSecond: number | undefined;
      readonly batchedCeilingEdgesPerSecond: number | undefined;
      readonly ceilingRowsPerSecond: number | undefined;
      readonly latencyP50Ms: number | undefined;
      readonly latencyP99Ms: number | undefined;
      readonly cassandraWritesPerEvent: number | undefined;
      readonly pipelineCpuMicrosPerRow: { readonly processor: number | undefined; readonly cassandra: number | undefined };
      readonly batchedCeilingCpuMicrosPerRow: { readonly client: number | undefined; readonly cassandra: number | undefined };
    };
  };
}

type Median = { readonly median: number };
type PageFigures = { readonly edgestream: { readonly p50Ms: Median; readonly p99Ms: Median }; readonly raw: { readonly p50Ms: Median; readonly p99Ms: Median } };
interface ReadsPhase {
  readonly newestPage: PageFigures;
  readonly fullScan: { readonly edgestreamRowsPerSecond: Median; readonly rawRowsPerSecond: Median };
  readonly fixedRate: { readonly http: { readonly p50Ms: Median; readonly p99Ms: Median }; readonly raw: { readonly p50Ms: Median; readonly p99Ms: Median } };
  readonly traversal?: { readonly edgestream: { readonly p50Ms: Median; readonly p99Ms: Median }; readonly rawBatched: { readonly p50Ms: Median; readonly p99Ms: Median } };
}

/** What the comparison reads of a bench:reads result. */
export interface ReadsSource {
  readonly load: { readonly celebrity: { readonly rowsPerSecond: number } };
  readonly split: { readonly seconds: number };
  readonly summary: { readonly before: ReadsPhase; readonly after: ReadsPhase };
}

type Celebrities<T> = { readonly A: T; readonly B: T };
interface WidePhase {
  readonly pages: Celebrities<{ readonly p50Ms: number; readonly p99Ms: number }>;
  readonly scans: Celebrities<{ readonly seconds: number }>;
}

/** What the comparison reads of a bench:wide result. */
export interface WideSource {
  readonly load: { readonly A: { readonly rowsPerSecond: number } };
  readonly split: { readonly seconds: number };
  readonly before: WidePhase;
  readonly after: WidePhase;
}

// Compile-time guards: the benches' real result types still carry every field read here.
const _ingestFits = (r: { summary: IngestSummary }): IngestSource => r;
const _readsFits = (r: ReadsBenchResult): ReadsSource => r;
const _wideFits = (r: WideBenchResult): WideSource => r;

export function ingestFigures(r: IngestSource): Figure[] {
  const m = r.summary.medians;
  return [
    { key: 'ingest.edgesPerSecond', label: 'ingest edges/s (ref: batched raw ceiling)', unit: 'edges/s', value: m.edgesPerSecond, ref: m.batchedCeilingEdgesPerSecond },
    { key: 'ingest.rowsPerSecond', label: 'ingest rows/s (ref: unbatched raw ceiling)', unit: 'rows/s', value: m.rowsPerSecond, ref: m.ceilingRowsPerSecond },
    { key: 'ingest.processorCpu', label: 'ingest processor CPU per row (ref: raw client, batched)', unit: 'µs', value: m.pipelineCpuMicrosPerRow.processor, ref: m.batchedCeilingCpuMicrosPerRow.client },
    { key: 'ingest.cassandraCpu', label: 'ingest Cassandra CPU per row, all nodes (ref: batched)', unit: 'µs', value: m.pipelineCpuMicrosPerRow.cassandra, ref: m.batchedCeilingCpuMicrosPerRow.cassandra },
    { key: 'ingest.replicaWrites', label: 'ingest partition writes applied per event, all replicas', unit: '', value: m.cassandraWritesPerEvent },
    { key: 'ingest.latencyP50', label: 'ingest event → rows visible p50', unit: 'ms', value: m.latencyP50Ms },
    { key: 'ingest.latencyP99', label: 'ingest event → rows visible p99', unit: 'ms', value: m.latencyP99Ms },
  ].filter((f) => f.value !== undefined);
}

export function readsFigures(r: ReadsSource): Figure[] {
  const phase = (name: 'before' | 'after', p: ReadsPhase): Figure[] => [
    { key: `reads.${name}.pageP50`, label: `reads newest page p50, ${name} split (ref: raw slice)`, unit: 'ms', value: p.newestPage.edgestream.p50Ms.median, ref: p.newestPage.raw.p50Ms.median },
    { key: `reads.${name}.pageP99`, label: `reads newest page p99, ${name} split (ref: raw slice)`, unit: 'ms', value: p.newestPage.edgestream.p99Ms.median, ref: p.newestPage.raw.p99Ms.median },
    { key: `reads.${name}.scan`, label: `reads full scan, ${name} split (ref: raw paged read)`, unit: 'rows/s', value: p.fullScan.edgestreamRowsPerSecond.median, ref: p.fullScan.rawRowsPerSecond.median },
    ...(p.traversal
      ? [
          { key: `reads.${name}.traversalP50`, label: `reads 2-hop traversal p50 (ref: raw, batched as edgestream)`, unit: 'ms', value: p.traversal.edgestream.p50Ms.median, ref: p.traversal.rawBatched.p50Ms.median },
          { key: `reads.${name}.traversalP99`, label: `reads 2-hop traversal p99 (ref: raw, batched as edgestream)`, unit: 'ms', value: p.traversal.edgestream.p99Ms.median, ref: p.traversal.rawBatched.p99Ms.median },
        ]
      : []),
    { key: `reads.${name}.httpP50`, label: `reads page over HTTP at a fixed rate p50, ${name} split (ref: raw)`, unit: 'ms', value: p.fixedRate.http.p50Ms.median, ref: p.fixedRate.raw.p50Ms.median },
    { key: `reads.${name}.httpP99`, label: `reads page over HTTP at a fixed rate p99, ${name} split (ref: raw)`, unit: 'ms', value: p.fixedRate.http.p99Ms.median, ref: p.fixedRate.raw.p99Ms.median },
  ];
  return [
    { key: 'reads.load', label: 'reads load of the celebrity, store.mutateMany', unit: 'rows/s', value: r.load.celebrity.rowsPerSecond },
    ...phase('before', r.summary.before),
    { key: 'reads.split', label: 'reads split phase (plan → split → verify)', unit: 's', value: r.split.seconds },
    ...phase('after', r.summary.after),
  ];
}

export function wideFigures(r: WideSource): Figure[] {
  const celebrity = (k: 'A' | 'B'): Figure[] => [
    { key: `wide.${k}.pageP50Before`, label: `wide ${k} newest page p50 before the split`, unit: 'ms', value: r.before.pages[k].p50Ms },
    { key: `wide.${k}.pageP50After`, label: `wide ${k} newest page p50 after the split (ref: before)`, unit: 'ms', value: r.after.pages[k].p50Ms, ref: r.before.pages[k].p50Ms },
    { key: `wide.${k}.pageP99After`, label: `wide ${k} newest page p99 after the split (ref: before)`, unit: 'ms', value: r.after.pages[k].p99Ms, ref: r.before.pages[k].p99Ms },
    { key: `wide.${k}.scanBefore`, label: `wide ${k} full scan before the split`, unit: 's', value: r.before.scans[k].seconds },
    { key: `wide.${k}.scanAfter`, label: `wide ${k} full scan after the split (ref: before)`, unit: 's', value: r.after.scans[k].seconds, ref: r.before.scans[k].seconds },
  ];
  return [
    { key: 'wide.load', label: 'wide load of A, store.mutateMany', unit: 'rows/s', value: r.load.A.rowsPerSecond },
    { key: 'wide.split', label: 'wide split phase (plan → split → verify)', unit: 's', value: r.split.seconds },
    ...celebrity('A'),
    ...celebrity('B'),
  ];
}

/** The figures of a child's result JSON, by the bench that wrote it. */
export function figuresOf(bench: ClusterBench, result: unknown): Figure[] {
  if (bench === 'ingest') return ingestFigures(result as IngestSource);
  if (bench === 'reads') return readsFigures(result as ReadsSource);
  return wideFigures(result as WideSource);
}
