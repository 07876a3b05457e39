import { decodeLinkValue, LinkState } from '../../sinks/namespaces/index.ts';
import type { Cell } from '../../sinks/store/TwoLevelMapStore.ts';

/**
 * Adds the ACTIVE links among one page of `T_out[v]` / `T_in[v]` cells to
 * `countSoFar`, so a recounter folds pages as it walks the partition:
 * `count = countActiveLinks(page2, countSoFar = countActiveLinks(page1))`.
 * A bigint, the type of the `degrees` value (u64).
 */
export function countActiveLinks(cells: readonly Cell[], countSoFar = 0n): bigint {
  let count = countSoFar;
  for (const cell of cells) if (decodeLinkValue(cell.value).state === LinkState.ACTIVE) count += 1n;
  return count;
}
