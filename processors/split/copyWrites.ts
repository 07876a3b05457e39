import { bucketOfKey, splitBucketId, type SplitTarget } from '../../sinks/namespaces/index.ts';
import type { Cell, Mutation } from '../../sinks/store/index.ts';

/**
 * The splitter's writes for one page of the original: every cell into its
 * bucket at its own write time, so a copy never beats a newer write that
 * reached the split layout first (a mirrored follow or unfollow), and copying
 * a cell twice changes nothing.
 */
export function copyWrites(target: SplitTarget, cells: readonly Cell[]): Mutation[] {
  return cells.map((cell) => ({
    namespace: target.splitNamespace,
    id: splitBucketId(target.partitionId, target.generation, bucketOfKey(target.layout, cell.key)),
    writeTime: cell.writeTime,
    deletions: [],
    additions: [{ key: cell.key, value: cell.value }],
  }));
}
