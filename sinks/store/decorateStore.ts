import type { TwoLevelMapStore } from './TwoLevelMapStore.ts';

/**
 * A store that forwards everything to `inner` except the methods it overrides:
 * the base of every decorator (caches, the split mirror, test doubles), so
 * each states only what it changes.
 */
export function decorateStore(inner: TwoLevelMapStore, overrides: Partial<Pick<TwoLevelMapStore, 'namespace' | 'mutateMany'>>): TwoLevelMapStore {
  return {
    get features() {
      return inner.features;
    },
    get namespaces() {
      return inner.namespaces;
    },
    init: () => inner.init(),
    close: () => inner.close(),
    replicaGroups: (ids) => inner.replicaGroups(ids),
    namespace: overrides.namespace ?? ((name) => inner.namespace(name)),
    // A decorator that changes the namespace reads changes these reads too.
    values: overrides.namespace ?? ((name) => inner.values(name)),
    mutateMany: overrides.mutateMany ?? ((mutations, options) => inner.mutateMany(mutations, options)),
  };
}
