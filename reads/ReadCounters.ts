import type { WidePartitionDetected } from '../schemas/generated/WidePartitionDetected.ts';

/** What one page or point read cost, against one logical partition. */
export interface ReadSample {
  /** Key + value bytes of the cells read. */
  readonly bytesRead: number;
  /** Cells read. */
  readonly rowsRead: number;
  /** Items handed to the caller because of these cells. */
  readonly rowsReturned: number;
}

/**
 * Read-side width counters (docs: shared/DESIGN.md §6, "detection on the read
 * path only"). The edge reader calls `record` once per page or batch of point
 * reads, always with the LOGICAL (namespace, partition id) it asked the
 * PartitionReader for, whatever physical layout (original or split buckets)
 * served it. Synchronous and O(1); it never does I/O.
 */
export interface ReadCounters {
  record(namespace: string, partitionId: string, sample: ReadSample): void;
}

/** Called when a partition crosses a threshold; at most once per partition per cool-down. */
export type OnWidePartition = (event: WidePartitionDetected) => void;

/** Counters that count nothing: the reader's default. */
export const NO_READ_COUNTERS: ReadCounters = Object.freeze({ record: () => undefined });
