import { keySuccessor, type TwoLevelMapStore } from '../sinks/store/index.ts';
import type { PartitionReader } from './PartitionReader.ts';

/** The PartitionReader that reads every partition where the write path put it. */
export function createStorePartitionReader(store: TwoLevelMapStore): PartitionReader {
  return {
    get: (namespace, id, key) => store.namespace(namespace).get(id, key),
    getKeys: (namespace, id, keys) => store.namespace(namespace).getKeys(id, keys),
    async page(namespace, id, { after, limit }) {
      const page = await store.namespace(namespace).slice(id, { limit, ...(after === undefined ? {} : { start: keySuccessor(after) }) });
      return { cells: page.cells, exhausted: page.pageState === undefined };
    },
  };
}
