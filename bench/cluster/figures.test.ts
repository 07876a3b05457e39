import { describe, expect, it } from 'vitest';
import { figuresOf, type IngestSource, type ReadsSource, type WideSource } from './figures.ts';

const m = (median: number) => ({ median });
const ingest = (latency: number | undefined): IngestSource => ({
  summary: {
    medians: {
      edgesPerSecond: 1302,
      rowsPerSecond: 6510,
      batchedCeilingEdgesPerSecond: 2401,
      ceilingRowsPerSecond: 11925,
      latencyP50Ms: latency,
      latencyP99Ms: latency,
      cassandraWritesPerEvent: 4.3,
      pipelineCpuMicrosPerRow: { processor: 109, cassandra: 136 },
      batchedCeilingCpuMicrosPerRow: { client: 74, cassandra: 79 },
    },
  },
});
const readsPhase = (traversal: boolean) => ({
  newestPage: { edgestream: { p50Ms: m(1.2), p99Ms: m(3) }, raw: { p50Ms: m(1), p99Ms: m(2) } },
  fullScan: { edgestreamRowsPerSecond: m(90_000), rawRowsPerSecond: m(120_000) },
  fixedRate: { http: { p50Ms: m(2), p99Ms: m(8) }, raw: { p50Ms: m(1), p99Ms: m(4) } },
  ...(traversal ? { traversal: { edgestream: { p50Ms: m(20), p99Ms: m(45) }, rawBatched: { p50Ms: m(15), p99Ms: m(40) } } } : {}),
});
const reads: ReadsSource = { load: { celebrity: { rowsPerSecond: 45_000 } }, split: { seconds: 21 }, summary: { before: readsPhase(true), after: readsPhase(false) } };
const widePhase = (p50: number, scan: number) => ({ pages: { A: { p50Ms: p50, p99Ms: p50 * 2 }, B: { p50Ms: 1, p99Ms: 2 } }, scans: { A: { seconds: scan }, B: { seconds: 1 } } });
const wide: WideSource = { load: { A: { rowsPerSecond: 42_000 } }, split: { seconds: 92 }, before: widePhase(4, 30), after: widePhase(2, 33) };

describe('figuresOf', () => {
  it('reads bench:ingest’s medians with the batched and unbatched ceilings as references, and leaves out a skipped latency phase', () => {
    const f = figuresOf('ingest', ingest(undefined));
    expect(f.find((x) => x.key === 'ingest.edgesPerSecond')).toMatchObject({ value: 1302, ref: 2401 });
    expect(f.find((x) => x.key === 'ingest.rowsPerSecond')).toMatchObject({ value: 6510, ref: 11925 });
    expect(f.find((x) => x.key === 'ingest.cassandraCpu')).toMatchObject({ value: 136, ref: 79 });
    expect(f.some((x) => x.key.startsWith('ingest.latency'))).toBe(false);
    expect(figuresOf('ingest', ingest(40)).find((x) => x.key === 'ingest.latencyP99')?.value).toBe(40);
  });

  it('reads bench:reads before and after the split against the raw reads; the traversal only where it ran', () => {
    const f = figuresOf('reads', reads);
    expect(f.find((x) => x.key === 'reads.before.pageP50')).toMatchObject({ value: 1.2, ref: 1 });
    expect(f.find((x) => x.key === 'reads.after.scan')).toMatchObject({ value: 90_000, ref: 120_000 });
    expect(f.find((x) => x.key === 'reads.before.traversalP99')).toMatchObject({ value: 45, ref: 40 });
    expect(f.some((x) => x.key === 'reads.after.traversalP50')).toBe(false);
    expect(f.find((x) => x.key === 'reads.split')?.value).toBe(21);
  });

  it('reads bench:wide after the split with the same read before it as the reference', () => {
    const f = figuresOf('wide', wide);
    expect(f.find((x) => x.key === 'wide.A.pageP50After')).toMatchObject({ value: 2, ref: 4 });
    expect(f.find((x) => x.key === 'wide.A.pageP99After')).toMatchObject({ value: 4, ref: 8 });
    expect(f.find((x) => x.key === 'wide.A.scanAfter')).toMatchObject({ value: 33, ref: 30 });
    expect(f.find((x) => x.key === 'wide.A.pageP50Before')?.ref).toBeUndefined();
  });
});
