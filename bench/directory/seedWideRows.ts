import { encodeWideRowKey, encodeWideRowRecord, WIDE_ROWS_NAMESPACE, type WideRowRecord } from '../../sinks/namespaces/index.ts';
import type { Mutation, TwoLevelMapStore } from '../../sinks/store/index.ts';

const PER_MUTATION = 200;
const PER_CALL = 4_000;

/** Writes `records` to `wide_rows` in large single-partition batches (a partition per namespace). */
export async function writeWideRows(store: TwoLevelMapStore, records: readonly WideRowRecord[], progress: (done: number) => void): Promise<void> {
  for (let start = 0; start < records.length; start += PER_CALL) {
    const batch = records.slice(start, start + PER_CALL);
    const mutations: Mutation[] = [];
    for (const ns of new Set(batch.map((r) => r.namespace))) {
      const mine = batch.filter((r) => r.namespace === ns);
      for (let i = 0; i < mine.length; i += PER_MUTATION) {
        const part = mine.slice(i, i + PER_MUTATION);
        const additions = part.map((r) => ({ key: encodeWideRowKey(r.partitionId), value: encodeWideRowRecord(r) }));
        mutations.push({ namespace: WIDE_ROWS_NAMESPACE, id: ns, writeTime: BigInt((part[0] as WideRowRecord).updatedAt), deletions: [], additions });
      }
    }
    await store.mutateMany(mutations);
    progress(start + batch.length);
  }
}

/** Records `from`..`to`-1 of partitions no workload writes (`celebrity-<i>`), round-robin over `namespaces`. */
export function untouchedCompletedRecords(namespaces: readonly string[], from: number, to: number, nowMicros: number): WideRowRecord[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, k) => completedRecord(namespaces[(from + k) % namespaces.length] as string, `celebrity-${from + k}`, nowMicros));
}

/** A COMPLETED hash split of 4 buckets, as the verifier leaves it. */
export const completedRecord = (namespace: string, partitionId: string, nowMicros: number): WideRowRecord => ({
  namespace, partitionId, status: 'COMPLETED', generation: 1, attempts: 1, splitNamespace: `${namespace}_split`, strategy: 'hash',
  buckets: 4, boundaries: [], rows: 1_000_000, bytes: 64 << 20, checksum: '', plannedAt: nowMicros, verifiedAt: nowMicros, updatedAt: nowMicros,
});
