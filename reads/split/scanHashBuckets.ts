import { bucketCount, type SplitTarget } from '../../sinks/namespaces/index.ts';
import type { KeyValue } from '../../sinks/store/index.ts';
import type { SplitLayoutReader } from '../../sinks/wide/index.ts';
import type { PartitionScanPage, ScanPosition } from '../PartitionReader.ts';

/**
 * One page of an order-free scan of a hash split: from `from` in its bucket,
 * moving to the next bucket only when that one is exhausted, so a page reads
 * one bucket (more only past empty ones) instead of `limit` cells from each.
 */
export async function scanHashBuckets(layoutReader: SplitLayoutReader<KeyValue>, split: SplitTarget, from: ScanPosition, limit: number): Promise<PartitionScanPage> {
  const n = bucketCount(split.layout);
  let after = from.after;
  for (let bucket = from.bucket; bucket < n; bucket++) {
    const page = await layoutReader.pageBucket(split, bucket, { limit, ...(after === undefined ? {} : { after }) });
    const last = page.cells.at(-1);
    if (!page.exhausted && last !== undefined) return { cells: page.cells, next: { split, bucket, after: last.key } };
    if (page.cells.length > 0) return bucket + 1 < n ? { cells: page.cells, next: { split, bucket: bucket + 1 } } : { cells: page.cells };
    if (!page.exhausted) throw new Error(`split bucket ${bucket} of ${split.splitNamespace}[${split.partitionId}] returned an empty page that is not exhausted`);
    after = undefined;
  }
  return { cells: [] };
}
