import { decorateStore, type NamespaceStore, type TwoLevelMapStore } from '../../../sinks/store/index.ts';
import type { BackgroundBudget } from './backgroundBudget.ts';

/** The store calls that do I/O (each becomes one budgeted unit of background work). */
const IO_METHODS = ['put', 'delete', 'get', 'getCells', 'getKeys', 'sliceMany', 'slice', 'scanPrefix', 'deleteNewest', 'keepNewest'] as const satisfies readonly (keyof NamespaceStore)[];

/**
 * The store a background projection uses: every read and write waits for a slot of
 * `budget` (backgroundBudget.ts), so background work yields when the store is slow.
 * Callers that send big `mutateMany` calls cut them into pieces first, so that one call
 * does not hold a slot for long.
 */
export function budgetedStore(inner: TwoLevelMapStore, budget: BackgroundBudget): TwoLevelMapStore {
  return decorateStore(inner, {
    namespace(name) {
      const ns = inner.namespace(name);
      const wrapped: Record<string, unknown> = { ...ns };
      for (const method of IO_METHODS) {
        const call = ns[method] as (...args: unknown[]) => Promise<unknown>;
        wrapped[method] = (...args: unknown[]) => budget.run(() => call.apply(ns, args));
      }
      return wrapped as unknown as NamespaceStore;
    },
    mutateMany: (mutations, options) => budget.run(() => inner.mutateMany(mutations, options)),
  });
}
