import { decorateStore, type NamespaceStore, type TwoLevelMapStore } from '../../sinks/store/index.ts';

export interface ReadCounts {
  /** Per namespace: point reads, multi-key reads (`getKeys`, one request each), slices (a `sliceMany` counts as one) and cells the slices returned. */
  readonly [namespace: string]: { gets: number; keyReads: number; slices: number; cells: number };
}

/**
 * A pass-through store that counts point reads and slices per namespace, so
 * the bench can show where the reader's reads went (the original namespaces
 * before the split, the `_split` tables after it). Writes are not counted.
 */
export function createCountingStore(inner: TwoLevelMapStore): { store: TwoLevelMapStore; counts: () => ReadCounts; reset: () => void } {
  let counts: Record<string, { gets: number; keyReads: number; slices: number; cells: number }> = {};
  const of = (ns: string) => (counts[ns] ??= { gets: 0, keyReads: 0, slices: 0, cells: 0 });
  const wrapped = new Map<string, NamespaceStore>();
  const store = decorateStore(inner, {
    namespace(name) {
      let ns = wrapped.get(name);
      if (ns === undefined) {
        const base = inner.namespace(name);
        ns = {
          namespace: base.namespace,
          features: base.features,
          put: (...a) => base.put(...a),
          delete: (...a) => base.delete(...a),
          get: (...a) => {
            of(name).gets++;
            return base.get(...a);
          },
          getCells: (...a) => {
            of(name).gets += a[0].length;
            return base.getCells(...a);
          },
          getKeys: (...a) => {
            of(name).keyReads++;
            return base.getKeys(...a);
          },
          async slice(...a) {
            const page = await base.slice(...a);
            const c = of(name);
            c.slices++;
            c.cells += page.cells.length;
            return page;
          },
          async sliceMany(...a) {
            const pages = await base.sliceMany(...a);
            const c = of(name);
            c.slices++;
            c.cells += pages.reduce((sum, p) => sum + p.cells.length, 0);
            return pages;
          },
          scanPrefix: (...a) => base.scanPrefix(...a),
          deleteNewest: (...a) => base.deleteNewest(...a),
          keepNewest: (...a) => base.keepNewest(...a),
        };
        wrapped.set(name, ns);
      }
      return ns;
    },
  });
  return { store, counts: () => structuredClone(counts), reset: () => (counts = {}) };
}
