import { keySuccessor, type KeyValue, type SlicePage, type TwoLevelMapStore } from '../sinks/store/index.ts';
import { keyOrderScanPage, type PartitionPage, type PartitionReader, type PartitionPageQuery } from './PartitionReader.ts';

const pageOf = (slice: SlicePage<KeyValue>): PartitionPage => ({ cells: slice.cells, exhausted: slice.pageState === undefined });

/** The PartitionReader that reads every partition where the write path put it, without write times (`store.values`). */
export function createStorePartitionReader(store: TwoLevelMapStore): PartitionReader {
  const page = async (namespace: string, id: string, { after, before, limit }: PartitionPageQuery) => {
    return pageOf(await store.values(namespace).slice(id, { limit, ...(after === undefined ? {} : { start: keySuccessor(after) }), ...(before === undefined ? {} : { end: before }) }));
  };
  return {
    get: (namespace, id, key) => store.values(namespace).get(id, key),
    getKeys: (namespace, id, keys) => store.values(namespace).getKeys(id, keys),
    page,
    scan: async (namespace, id, { from, limit }) => keyOrderScanPage(await page(namespace, id, { limit, ...(from?.after === undefined ? {} : { after: from.after }) })),
    scanMany: async (namespace, ids, { limit }) => (ids.length === 0 ? [] : (await store.values(namespace).sliceMany(ids, { limit })).map((slice) => keyOrderScanPage(pageOf(slice)))),
    replicaGroups: (ids) => store.replicaGroups(ids),
  };
}
