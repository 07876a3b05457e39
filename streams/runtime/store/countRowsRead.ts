import { decorateStore, type TwoLevelMapStore } from '../../../sinks/store/index.ts';

/** A pass-through store that counts the cells its reads return (the rows a recount round read). */
export function countRowsRead(inner: TwoLevelMapStore): { readonly store: TwoLevelMapStore; rows(): number } {
  let rows = 0;
  const add = <T>(n: number, value: T): T => ((rows += n), value);
  const store = decorateStore(inner, {
    namespace(name) {
      const ns = inner.namespace(name);
      return {
        ...ns,
        get: async (id, key) => {
          const cell = await ns.get(id, key);
          return add(cell === undefined ? 0 : 1, cell);
        },
        getKeys: async (id, keys) => {
          const cells = await ns.getKeys(id, keys);
          return add(cells.filter((c) => c !== undefined).length, cells);
        },
        slice: async (id, q) => {
          const page = await ns.slice(id, q);
          return add(page.cells.length, page);
        },
        scanPrefix: async (id, prefix, q) => {
          const page = await ns.scanPrefix(id, prefix, q);
          return add(page.cells.length, page);
        },
      };
    },
  });
  return { store, rows: () => rows };
}
