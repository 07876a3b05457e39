import {
  decodeWideRowKey,
  decodeWideRowRecord,
  encodeCheckpointKey,
  encodeWideRowKey,
  encodeWideRowRecord,
  WIDE_ROW_CHECKPOINTS_NAMESPACE,
  WIDE_ROWS_NAMESPACE,
  versionOf,
  type WideRowRecord,
} from '../namespaces/index.ts';
import type { TwoLevelMapStore } from '../store/index.ts';

/** Reads and writes of the split metadata (`wide_rows`) and the stages' checkpoints. */
export interface WideRowRepository {
  get(namespace: string, partitionId: string): Promise<WideRowRecord | undefined>;
  /** Writes a record at its `version` (see processors/split `nextStamps`; `updatedAt` if it has none): the newest version wins. */
  put(record: WideRowRecord): Promise<void>;
  /** Every record of a namespace (wide_rows partitions hold one cell per wide partition: few). */
  list(namespace: string): Promise<WideRowRecord[]>;
  getCheckpoint<T>(stage: string, record: Pick<WideRowRecord, 'namespace' | 'partitionId' | 'generation'>): Promise<T | undefined>;
  putCheckpoint(stage: string, record: Pick<WideRowRecord, 'namespace' | 'partitionId' | 'generation'>, state: unknown, writeTimeMicros: number): Promise<void>;
}

const LIST_PAGE = 1_000;

export function createWideRowRepository(store: TwoLevelMapStore): WideRowRepository {
  const rows = () => store.namespace(WIDE_ROWS_NAMESPACE);
  const checkpoints = () => store.namespace(WIDE_ROW_CHECKPOINTS_NAMESPACE);
  return {
    async get(namespace, partitionId) {
      const cell = await rows().get(namespace, encodeWideRowKey(partitionId));
      return cell === undefined ? undefined : decodeWideRowRecord(cell.value);
    },
    put: (record) => rows().put(record.namespace, encodeWideRowKey(record.partitionId), encodeWideRowRecord(record), BigInt(versionOf(record))),
    async list(namespace) {
      const out: WideRowRecord[] = [];
      let pageState: string | undefined;
      do {
        const page = await rows().slice(namespace, { limit: LIST_PAGE, ...(pageState === undefined ? {} : { pageState }) });
        for (const cell of page.cells) {
          const record = decodeWideRowRecord(cell.value);
          if (record.partitionId !== decodeWideRowKey(cell.key)) throw new Error(`wide_rows[${namespace}]: record for '${record.partitionId}' stored under another key`);
          out.push(record);
        }
        pageState = page.pageState;
      } while (pageState !== undefined);
      return out;
    },
    async getCheckpoint<T>(stage: string, r: Pick<WideRowRecord, 'namespace' | 'partitionId' | 'generation'>) {
      const cell = await checkpoints().get(r.namespace, encodeCheckpointKey(stage, r.generation, r.partitionId));
      return cell === undefined ? undefined : (JSON.parse(Buffer.from(cell.value).toString('utf8')) as T);
    },
    putCheckpoint: (stage, r, state, writeTimeMicros) =>
      checkpoints().put(r.namespace, encodeCheckpointKey(stage, r.generation, r.partitionId), Buffer.from(JSON.stringify(state), 'utf8'), BigInt(writeTimeMicros)),
  };
}
