import { deriveRecentPage, indexedLinkNamespace } from '../../../sinks/namespaces/index.ts';
import { isStoreError, keySuccessor, type Cell } from '../../../sinks/store/index.ts';
import type { StageContext } from './createSplitStageRunner.ts';
import type { SplitStageDeps } from './splitStageDeps.ts';

/** Link cells per query when an index page is derived from its link partition. */
const DERIVE_PAGE_CELLS = 5_000;

/**
 * One ascending page of the original partition `namespace[id]` after `after`,
 * as the planner, splitter and verifier walk it. A `*_recent` index is derived
 * data: when its slice fails with `read_failure` (more row tombstones than a
 * read may cross, docs/architecture.md §6), the page is computed from the
 * tombstone-free link partition instead, so the chain rebuilds such an index
 * into split buckets that hold no tombstones at all.
 */
export async function pageOriginal(
  d: SplitStageDeps,
  ctx: StageContext,
  namespace: string,
  id: string,
  after: Uint8Array | undefined,
  limit: number,
): Promise<{ cells: readonly Cell[]; exhausted: boolean }> {
  const sliceOf = (ns: string, from: Uint8Array | undefined, n: number) =>
    ctx.op(`paging ${ns}[${id}]`, 'store', async () => {
      const page = await d.store.namespace(ns).slice(id, { limit: n, ...(from === undefined ? {} : { start: keySuccessor(from) }) });
      return { cells: page.cells, exhausted: page.pageState === undefined };
    });
  const links = indexedLinkNamespace(namespace);
  if (links === undefined) return sliceOf(namespace, after, limit);
  try {
    // Tried once: a read_failure is not worth the retry budget (it fails the same way until compaction).
    const page = await d.store.namespace(namespace).slice(id, { limit, ...(after === undefined ? {} : { start: keySuccessor(after) }) });
    return { cells: page.cells, exhausted: page.pageState === undefined };
  } catch (e) {
    if (!isStoreError(e) || e.code !== 'read_failure') return sliceOf(namespace, after, limit);
    ctx.logger.warn({ namespace, partition_id: id, err: e.message }, 'the index read failed (tombstones?); deriving the page from the link partition');
    return deriveRecentPage((from) => sliceOf(links, from, DERIVE_PAGE_CELLS), after, limit);
  }
}
