import {
  decodeWideRowKey,
  decodeWideRowLogKey,
  decodeWideRowRecord,
  encodeCheckpointKey,
  encodeWideRowKey,
  encodeWideRowLogKey,
  encodeWideRowRecord,
  WIDE_ROW_CHECKPOINTS_NAMESPACE,
  WIDE_ROWS_LOG_NAMESPACE,
  WIDE_ROWS_NAMESPACE,
  versionOf,
  wideRowLogBucketId,
  wideRowLogBucketIds,
  wideRowLogKeyFrom,
  type WideRowRecord,
  type WideRowStatus,
  WIDE_ROW_STATUSES,
} from '../namespaces/index.ts';
import type { NamespaceStore, TwoLevelMapStore } from '../store/index.ts';

/** Reads and writes of the split metadata (`wide_rows`) and the stages' checkpoints. */
export interface WideRowRepository {
  get(namespace: string, partitionId: string): Promise<WideRowRecord | undefined>;
  /**
   * Writes a record at its `version` (see processors/split `nextStamps`; `updatedAt` if it has none): the newest version wins.
   * Its change-log cell (`wide_rows_log`, at this writer's clock) is written first, so a directory that has read the log
   * up to some time knows every record whose write had finished by then.
   */
  put(record: WideRowRecord): Promise<void>;
  /** The partition ids of `namespace` whose records were written at writer times in [fromMs, untilMs] (a few more: the last hour's bucket is read to its end), oldest first; repeats possible. */
  changes(namespace: string, fromMs: number, untilMs: number): AsyncIterable<string>;
  /** Every record of a namespace. */
  list(namespace: string): Promise<WideRowRecord[]>;
  /** Every partition id of a namespace, page by page; a record is decoded only when asked (a directory of millions needs only the ids). */
  entries(namespace: string): AsyncIterable<WideRowEntry>;
  getCheckpoint<T>(stage: string, record: Pick<WideRowRecord, 'namespace' | 'partitionId' | 'generation'>): Promise<T | undefined>;
  putCheckpoint(stage: string, record: Pick<WideRowRecord, 'namespace' | 'partitionId' | 'generation'>, state: unknown, writeTimeMicros: number): Promise<void>;
}

export interface WideRowEntry {
  readonly partitionId: string;
  /** The record's status alone (JSON parsed, not validated: cheap enough for a million records). */
  status(): WideRowStatus;
  record(): WideRowRecord;
}

const LIST_PAGE = 1_000;

export interface WideRowRepositoryOptions {
  /** The writer's clock for change-log keys (default Date.now). */
  readonly nowMs?: () => number;
}

function statusOf(value: Uint8Array, namespace: string, partitionId: string): WideRowStatus {
  const status = (JSON.parse(Buffer.from(value).toString('utf8')) as { status?: unknown }).status;
  if (!(WIDE_ROW_STATUSES as readonly unknown[]).includes(status)) throw new Error(`wide_rows[${namespace}][${partitionId}]: no valid status`);
  return status as WideRowStatus;
}

async function* entriesOf(rows: NamespaceStore, namespace: string): AsyncIterable<WideRowEntry> {
  let pageState: string | undefined;
  do {
    const page = await rows.slice(namespace, { limit: LIST_PAGE, ...(pageState === undefined ? {} : { pageState }) });
    for (const cell of page.cells) {
      const partitionId = decodeWideRowKey(cell.key);
      yield {
        partitionId,
        status: () => statusOf(cell.value, namespace, partitionId),
        record() {
          const record = decodeWideRowRecord(cell.value);
          if (record.partitionId !== partitionId) throw new Error(`wide_rows[${namespace}]: record for '${record.partitionId}' stored under another key`);
          return record;
        },
      };
    }
    pageState = page.pageState;
  } while (pageState !== undefined);
}

async function* changesOf(log: NamespaceStore, namespace: string, fromMs: number, untilMs: number): AsyncIterable<string> {
  for (const bucket of wideRowLogBucketIds(namespace, fromMs, untilMs)) {
    let pageState: string | undefined;
    do {
      const page = await log.slice(bucket, { start: wideRowLogKeyFrom(fromMs), limit: LIST_PAGE, ...(pageState === undefined ? {} : { pageState }) });
      for (const cell of page.cells) yield decodeWideRowLogKey(cell.key).partitionId;
      pageState = page.pageState;
    } while (pageState !== undefined);
  }
}

export function createWideRowRepository(store: TwoLevelMapStore, opts: WideRowRepositoryOptions = {}): WideRowRepository {
  const now = opts.nowMs ?? Date.now;
  const rows = () => store.namespace(WIDE_ROWS_NAMESPACE);
  const log = () => store.namespace(WIDE_ROWS_LOG_NAMESPACE);
  const checkpoints = () => store.namespace(WIDE_ROW_CHECKPOINTS_NAMESPACE);
  return {
    async get(namespace, partitionId) {
      const cell = await rows().get(namespace, encodeWideRowKey(partitionId));
      return cell === undefined ? undefined : decodeWideRowRecord(cell.value);
    },
    async put(record) {
      const atMs = now();
      await log().put(wideRowLogBucketId(record.namespace, atMs), encodeWideRowLogKey(atMs, record.partitionId), new Uint8Array(0), BigInt(Math.floor(atMs)) * 1_000n);
      await rows().put(record.namespace, encodeWideRowKey(record.partitionId), encodeWideRowRecord(record), BigInt(versionOf(record)));
    },
    changes: (namespace, fromMs, untilMs) => changesOf(log(), namespace, fromMs, untilMs),
    async list(namespace) {
      const out: WideRowRecord[] = [];
      for await (const entry of entriesOf(rows(), namespace)) out.push(entry.record());
      return out;
    },
    entries: (namespace) => entriesOf(rows(), namespace),
    async getCheckpoint<T>(stage: string, r: Pick<WideRowRecord, 'namespace' | 'partitionId' | 'generation'>) {
      const cell = await checkpoints().get(r.namespace, encodeCheckpointKey(stage, r.generation, r.partitionId));
      return cell === undefined ? undefined : (JSON.parse(Buffer.from(cell.value).toString('utf8')) as T);
    },
    putCheckpoint: (stage, r, state, writeTimeMicros) =>
      checkpoints().put(r.namespace, encodeCheckpointKey(stage, r.generation, r.partitionId), Buffer.from(JSON.stringify(state), 'utf8'), BigInt(writeTimeMicros)),
  };
}
