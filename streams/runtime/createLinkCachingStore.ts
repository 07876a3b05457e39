import { cellKey, decorateStore, isStoreError, remapPartialFailure, type Mutation, type TwoLevelMapStore } from '../../sinks/store/index.ts';
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
    if (!isCached(namespace)) return -1;
    try {
      return inner.namespace(namespace).features.maxInlineValueBytes;
    } catch {
      return -1; // unknown namespace: the inner mutateMany will reject it
    }
  };
  const cacheable = (namespace: string, value: Uint8Array): boolean => {
    let limit = inlineLimit.get(namespace);
    if (limit === undefined) inlineLimit.set(namespace, (limit = limitOf(namespace)));
    return value.length <= limit;
  };

  return decorateStore(inner, {
    async mutateMany(mutations: readonly Mutation[]) {
      const sent: Mutation[] = [];
      const originOf: number[] = [];
      const deleted = deletedCells(mutations);
      const deletedHere = (m: Mutation, key: Uint8Array): boolean =>
        deleted.size > 0 && (deleted.has(cellAt(m.namespace, m.id, key, m.writeTime)) || deleted.has(partitionAt(m.namespace, m.id, m.writeTime)));
      mutations.forEach((m, index) => {
        const additions = m.additions.filter(
          (a) => !(cacheable(m.namespace, a.value) && !deletedHere(m, a.key) && cache.dominates(m.namespace, m.id, a.key, m.writeTime, a.value)),
        );
        if (additions.length === 0 && m.deletions.length === 0 && (m as { readonly clear?: unknown }).clear !== true) return;
        sent.push(additions.length === m.additions.length ? m : { ...m, additions });
        originOf.push(index);
      });
      if (sent.length === 0) return;
      let failed = new Set<number>();
      try {
        await inner.mutateMany(sent);
      } catch (e) {
        if (!isStoreError(e) || e.code !== 'partial_failure') throw e;
        failed = new Set(e.failures.flatMap((f) => f.mutationIndexes));
        recordLanded(sent, failed);
        throw remapPartialFailure(e, originOf);
      }
      recordLanded(sent, failed);
    },
  });

  function recordLanded(sent: readonly Mutation[], failed: ReadonlySet<number>): void {
    sent.forEach((m, i) => {
      if (failed.has(i)) return;
      for (const a of m.additions) if (cacheable(m.namespace, a.value)) cache.record(m.namespace, m.id, a.key, m.writeTime, a.value);
    });
  }
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
function deletedCells(mutations: readonly Mutation[]): Set<string> {
  const cells = new Set<string>();
  for (const m of mutations) {
    for (const key of m.deletions) cells.add(cellAt(m.namespace, m.id, key, m.writeTime));
    if ((m as { readonly clear?: unknown }).clear === true) cells.add(partitionAt(m.namespace, m.id, m.writeTime));
  }
  return cells;
}

function partitionAt(namespace: string, id: string, writeTime: bigint): string {
  return `${namespace}\u0000${id}@${writeTime}`;
}

function cellAt(namespace: string, id: string, key: Uint8Array, writeTime: bigint): string {
  return `${cellKey(namespace, id, key)}@${writeTime}`;
}
