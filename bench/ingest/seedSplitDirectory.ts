import { openStore } from '../../cli/openStore.ts';
import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { reverseLinkNamespace, reverseRecentNamespace, splittableNamespaces } from '../../sinks/namespaces/index.ts';
import type { StackEndpoints } from '../../stack/endpoints.ts';
import { completedRecord, untouchedCompletedRecords, writeWideRows } from '../directory/seedWideRows.ts';

/**
 * Fills a run's split directory with `count` COMPLETED records before its processor starts:
 * the reverse links (and their newest-first index) of the workload's `touchedUsers` most
 * followed users (`user-0` is its celebrity), so their writes are mirrored into split buckets
 * (each such ADD_EDGE writes two more rows), and the rest of partitions it never touches.
 */
export async function seedSplitDirectory(endpoints: StackEndpoints, config: EdgestreamConfig, count: number, touchedUsers: number, progress: (line: string) => void): Promise<number> {
  const store = await openStore(endpoints, config);
  try {
    const now = Date.now() * 1_000;
    const touched = config.edgeTypes.flatMap(({ name }) =>
      Array.from({ length: touchedUsers }, (_, i) => [completedRecord(reverseLinkNamespace(name), `user-${i}`, now), completedRecord(reverseRecentNamespace(name), `user-${i}`, now)]).flat(),
    ).slice(0, count);
    const rest = untouchedCompletedRecords([...splittableNamespaces(config.edgeTypes).keys()], 0, count - touched.length, now);
    const records = [...touched, ...rest];
    await writeWideRows(store, records, (done) => progress(`seeding the split directory: ${done} / ${count}`));
    return records.length;
  } finally {
    await store.close();
  }
}
