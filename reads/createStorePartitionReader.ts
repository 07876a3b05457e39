import { keySuccessor, type TwoLevelMapStore } from '../sinks/store/index.ts';
import { keyOrderScanPage, type PartitionReader, type PartitionPageQuery } from './PartitionReader.ts';

/** The PartitionReader that reads every partition where the write path put it. */
export function createStorePartitionReader(store: TwoLevelMapStore): PartitionReader {
  const page = async (namespace: string, id: string, { after, before, limit }: PartitionPageQuery) => {
    const slice = await store.namespace(namespace).slice(id, { limit, ...(after === undefined ? {} : { start: keySuccessor(after) }), ...(before === undefined ? {} : { end: before }) });
    return { cells: slice.cells, exhausted: slice.pageState === undefined };
  };
  return {
    get: (namespace, id, key) => store.namespace(namespace).get(id, key),
    getKeys: (namespace, id, keys) => store.namespace(namespace).getKeys(id, keys),
    page,
    scan: async (namespace, id, { from, limit }) => keyOrderScanPage(await page(namespace, id, { limit, ...(from?.after === undefined ? {} : { after: from.after }) })),
    replicaGroups: (ids) => store.replicaGroups(ids),
  };
}
