import { encodeWideRowKey, encodeWideRowRecord, WIDE_ROWS_NAMESPACE, type WideRowRecord } from '../../sinks/namespaces/index.ts';
import type { Mutation, TwoLevelMapStore } from '../../sinks/store/index.ts';
import type { WideRowRepository } from '../../sinks/wide/index.ts';

const PER_MUTATION = 200;
const PER_CALL = 4_000;

/**
 * Grows `wide_rows` from `have` to `size` COMPLETED records of partitions nobody writes
 * (`celebrity-<i>`, round-robin over the splittable namespaces), written in large
 * single-partition batches; returns every record now stored.
 */
export async function seedWideRows(
  repository: WideRowRepository,
  store: TwoLevelMapStore,
  namespaces: readonly string[],
  have: readonly WideRowRecord[],
  size: number,
  progress: (line: string) => void,
): Promise<WideRowRecord[]> {
  const all = [...have];
  const now = Date.now() * 1_000;
  while (all.length < size) {
    const batch: WideRowRecord[] = [];
    for (let i = all.length; i < Math.min(size, all.length + PER_CALL); i++) batch.push(completed(namespaces[i % namespaces.length] as string, `celebrity-${i}`, now));
    const mutations: Mutation[] = [];
    for (const ns of namespaces) {
      const mine = batch.filter((r) => r.namespace === ns);
      for (let i = 0; i < mine.length; i += PER_MUTATION) {
        const additions = mine.slice(i, i + PER_MUTATION).map((r) => ({ key: encodeWideRowKey(r.partitionId), value: encodeWideRowRecord(r) }));
        mutations.push({ namespace: WIDE_ROWS_NAMESPACE, id: ns, writeTime: BigInt(now), deletions: [], additions });
      }
    }
    await store.mutateMany(mutations);
    all.push(...batch);
    progress(`seeding wide_rows: ${all.length} / ${size}`);
  }
  // One read back through the repository: the records are what the directory will see.
  const sample = all[all.length - 1];
  if (sample !== undefined && (await repository.get(sample.namespace, sample.partitionId))?.status !== 'COMPLETED') throw new Error('seeded wide_rows record not readable');
  return all;
}

const completed = (namespace: string, partitionId: string, now: number): WideRowRecord => ({
  namespace, partitionId, status: 'COMPLETED', generation: 1, attempts: 1, splitNamespace: `${namespace}_split`, strategy: 'hash',
  buckets: 4, boundaries: [], rows: 1_000_000, bytes: 64 << 20, checksum: '', plannedAt: now, verifiedAt: now, updatedAt: now,
});
