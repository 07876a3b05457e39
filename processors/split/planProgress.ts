import type { SplitStrategy } from '../../sinks/namespaces/index.ts';
import type { Cell } from '../../sinks/store/index.ts';
import { cellBytes, ChainChecksum, EMPTY_CHECKSUM, type ChecksumState } from './chainChecksum.ts';

/**
 * The planner's scan, folded page by page (pages of CHECKSUM_BLOCK_ROWS cells,
 * so every page boundary is a checkpoint): rows, bytes, the chained checksum
 * and a bounded sample of keys from which range boundaries are cut.
 *
 * Samples: the key of every `sampleEvery`-th row; when more than MAX_SAMPLES
 * are held, every other one is dropped and `sampleEvery` doubles, so memory
 * and checkpoint size stay bounded however wide the partition is, and
 * boundaries land within `sampleEvery` rows of an equal split.
 */
export interface PlanProgress {
  /** Last key scanned (hex); the next page starts after it. */
  readonly lastKey?: string;
  readonly bytes: number;
  readonly checksum: ChecksumState;
  readonly sampleEvery: number;
  readonly samples: readonly string[];
}

export const MAX_SAMPLES = 1024;

export const START_PLAN: PlanProgress = Object.freeze({ bytes: 0, checksum: EMPTY_CHECKSUM, sampleEvery: 1, samples: [] });

export interface PlanPageResult {
  readonly progress: PlanProgress;
  /** The running checksum after the page (for the digest at the end of the scan). */
  readonly checksum: ChainChecksum;
}

export function foldPlanPage(progress: PlanProgress, cells: readonly Cell[], checksum = new ChainChecksum(progress.checksum)): PlanPageResult {
  let { bytes, sampleEvery } = progress;
  let samples = [...progress.samples];
  let lastKey = progress.lastKey;
  for (const cell of cells) {
    if (checksum.count % sampleEvery === 0) samples.push(Buffer.from(cell.key).toString('hex'));
    if (samples.length > MAX_SAMPLES) {
      samples = samples.filter((_, i) => i % 2 === 0);
      sampleEvery *= 2;
    }
    checksum.add(cell);
    bytes += cellBytes(cell);
    lastKey = Buffer.from(cell.key).toString('hex');
  }
  const state = checksum.state();
  return {
    progress: { ...(lastKey === undefined ? {} : { lastKey }), bytes, checksum: state ?? progress.checksum, sampleEvery, samples },
    checksum,
  };
}

export interface BucketChoice {
  readonly buckets: number;
  /** Range strategy: the smallest key of buckets 1..n-1 (hex), strictly increasing; empty for hash. */
  readonly boundaries: readonly string[];
}

/**
 * n = ceil(bytes / targetBucketBytes), at least 2 and at most `maxBuckets`
 * (the read-amplification cap: a merged page reads at most n buckets). A range
 * split cuts at the samples nearest to equal row counts; duplicates collapse,
 * so a tiny partition may get fewer buckets than asked.
 */
export function chooseBuckets(strategy: SplitStrategy, rows: number, bytes: number, progress: Pick<PlanProgress, 'samples' | 'sampleEvery'>, opts: { targetBucketBytes: number; maxBuckets: number }): BucketChoice {
  const wanted = Math.min(opts.maxBuckets, Math.max(2, Math.ceil(bytes / opts.targetBucketBytes)));
  if (strategy === 'hash') return { buckets: wanted, boundaries: [] };
  const boundaries: string[] = [];
  for (let i = 1; i < wanted; i++) {
    const sample = progress.samples[Math.round((rows * i) / wanted / progress.sampleEvery)];
    if (sample !== undefined && sample !== boundaries.at(-1) && sample !== progress.samples[0]) boundaries.push(sample);
  }
  return { buckets: boundaries.length + 1, boundaries };
}
