import { cellBytes } from '../../processors/split/index.ts';
import { bucketCount, splitBucketId, splitTargetOf, type WideRowRecord } from '../../sinks/namespaces/index.ts';
import type { TwoLevelMapStore } from '../../sinks/store/index.ts';

export interface PartitionSize {
  readonly rows: number;
  /** Key + value bytes, as the planner counts them. */
  readonly bytes: number;
}

/** Rows and bytes of every bucket of a split, counted by paging each bucket. */
export async function bucketSizes(store: TwoLevelMapStore, record: WideRowRecord): Promise<PartitionSize[]> {
  const t = splitTargetOf(record);
  const ns = store.namespace(t.splitNamespace);
  const sizes: PartitionSize[] = [];
  for (let b = 0; b < bucketCount(t.layout); b++) {
    let rows = 0;
    let bytes = 0;
    let pageState: string | undefined;
    do {
      const page = await ns.slice(splitBucketId(t.partitionId, t.generation, b), { limit: 5_000, ...(pageState === undefined ? {} : { pageState }) });
      rows += page.cells.length;
      for (const c of page.cells) bytes += cellBytes(c);
      pageState = page.pageState;
    } while (pageState !== undefined);
    sizes.push({ rows, bytes });
  }
  return sizes;
}
