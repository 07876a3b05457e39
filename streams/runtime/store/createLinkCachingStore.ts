import { cellKey, decorateStore, isStoreError, remapPartialFailure, type KeyValue, type Mutation, type TwoLevelMapStore, type WriteOptions } from '../../../sinks/store/index.ts';
import type { LinkCache } from './linkCache.ts';

/** Link namespaces (`<type>_out`, `<type>_in`): small values, rewritten often by replays and re-follows. */
export const isLinkNamespace = (namespace: string): boolean => /_(?:out|in)$/.test(namespace);

/**
 * A store decorator that drops link additions the cache proves redundant
 * before `mutateMany` runs, and records the additions that landed afterwards.
 * Only values stored inline (<= the namespace's `maxInlineValueBytes`) are
 * cached, since only those obey the "greater bytes win" tie rule. An addition
 * whose cell the same call also deletes at the same write time is always
 * sent (see `deletedCells`; the fast-check model test found it). Deletions
 * pass through untouched and need not invalidate anything: a cached write
 * that landed stays a lower bound of the cell's LWW winner.
 *
 * A `partial_failure` thrown by the inner store names indexes of the filtered
 * list; they are mapped back to the caller's indexes, and nothing of a failed
 * group is recorded.
 */
export function createLinkCachingStore(
  inner: TwoLevelMapStore,
  cache: LinkCache,
  { isCached = isLinkNamespace }: { isCached?: (namespace: string) => boolean } = {},
): TwoLevelMapStore {
  /** Per namespace: the largest cacheable value, -1 when the namespace is not cached (or unknown). */
  const inlineLimit = new Map<string, number>();
  const limitOf = (namespace: string): number => {
    let limit = inlineLimit.get(namespace);
    if (limit === undefined) inlineLimit.set(namespace, (limit = inlineLimitOf(namespace)));
    return limit;
  };
  const inlineLimitOf = (namespace: string): number => {
    if (!isCached(namespace)) return -1;
    try {
      return inner.namespace(namespace).features.maxInlineValueBytes;
    } catch {
      return -1; // unknown namespace: the inner mutateMany will reject it
    }
  };

  return decorateStore(inner, {
    async mutateMany(mutations: readonly Mutation[], options?: WriteOptions) {
      const deleted = deletedCells(mutations);
      const sent: Mutation[] = [];
      const originOf: number[] = [];
      /** Per sent mutation, the cache key of each of its additions (undefined: not cached). */
      const cellsOf: (readonly (string | undefined)[] | undefined)[] = [];
      mutations.forEach((m, index) => {
        const limit = m.additions.length === 0 ? -1 : limitOf(m.namespace);
        const { additions, cells } = limit < 0 ? { additions: m.additions, cells: undefined } : undominated(m, limit, deleted);
        if (additions.length === 0 && m.deletions.length === 0 && (m as { readonly clear?: unknown }).clear !== true) return;
        sent.push(additions === m.additions ? m : { ...m, additions });
        originOf.push(index);
        cellsOf.push(cells);
      });
      if (sent.length === 0) return;
      let failed = new Set<number>();
      try {
        await inner.mutateMany(sent, options);
      } catch (e) {
        if (!isStoreError(e) || e.code !== 'partial_failure') throw e;
        failed = new Set(e.failures.flatMap((f) => f.mutationIndexes));
        recordLanded(sent, cellsOf, failed);
        throw remapPartialFailure(e, originOf);
      }
      recordLanded(sent, cellsOf, failed);
    },
  });

  /**
   * The additions of `m` the cache cannot prove redundant, and the cache key of
   * each (undefined when its value is too large to cache). Allocates a new
   * additions list only when something is dropped.
   */
  function undominated(m: Mutation, limit: number, deleted: ReadonlySet<string> | undefined): { additions: readonly KeyValue[]; cells: (string | undefined)[] } {
    const cells: (string | undefined)[] = [];
    let kept: KeyValue[] | undefined;
    for (let j = 0; j < m.additions.length; j++) {
      const a = m.additions[j] as KeyValue;
      const cell = a.value.length <= limit ? cellKey(m.namespace, m.id, a.key) : undefined;
      if (cell !== undefined && !deletedHere(deleted, m, cell) && cache.dominates(cell, m.writeTime, a.value)) {
        kept ??= m.additions.slice(0, j);
        continue;
      }
      kept?.push(a);
      cells.push(cell);
    }
    return { additions: kept ?? m.additions, cells };
  }

  function recordLanded(sent: readonly Mutation[], cellsOf: readonly (readonly (string | undefined)[] | undefined)[], failed: ReadonlySet<number>): void {
    sent.forEach((m, i) => {
      const cells = cellsOf[i];
      if (cells === undefined || failed.has(i)) return;
      m.additions.forEach((a, j) => {
        const cell = cells[j];
        if (cell !== undefined) cache.record(cell, m.writeTime, a.value);
      });
    });
  }
}

/** Whether the call also deletes this cell (or clears its partition) at the mutation's write time. */
function deletedHere(deleted: ReadonlySet<string> | undefined, m: Mutation, cell: string): boolean {
  return deleted !== undefined && (deleted.has(timedCell(cell, m.writeTime)) || deleted.has(partitionAt(m.namespace, m.id, m.writeTime)));
}

/**
 * Cells (and partitions, for `clear`) deleted somewhere in the call. An
 * addition of such a cell at the same write time must be sent even when the
 * cache dominates it: within one mutation, "deletions before additions" drops
 * the deletion only because the addition is there (and a clear is lowered to
 * T-1 only because of the mutation's additions at T); without the addition
 * the tombstone would win the tie. Across mutations the port applies plain
 * LWW, where this is merely conservative.
 */
function deletedCells(mutations: readonly Mutation[]): Set<string> | undefined {
  if (!mutations.some((m) => m.deletions.length > 0 || (m as { readonly clear?: unknown }).clear === true)) return undefined;
  const cells = new Set<string>();
  for (const m of mutations) {
    for (const key of m.deletions) cells.add(timedCell(cellKey(m.namespace, m.id, key), m.writeTime));
    if ((m as { readonly clear?: unknown }).clear === true) cells.add(partitionAt(m.namespace, m.id, m.writeTime));
  }
  return cells;
}

function partitionAt(namespace: string, id: string, writeTime: bigint): string {
  return `${namespace}\u0000${id}@${writeTime}`;
}

/** A cell (`cellKey`) at one write time. */
function timedCell(cell: string, writeTime: bigint): string {
  return `${cell}@${writeTime}`;
}
