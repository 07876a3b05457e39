import type { PartitionReader } from '../PartitionReader.ts';

/** One call the reader made: a point read, a page or a batch of first pages, with the logical partitions it asked for. */
export interface RecordedRead {
  readonly kind: 'get' | 'getKeys' | 'page' | 'scan' | 'scanMany';
  readonly namespace: string;
  /** The partition; of a `scanMany`, its first id (`ids` holds them all). */
  readonly id: string;
  readonly ids?: readonly string[];
  readonly key?: Uint8Array;
  readonly keys?: readonly Uint8Array[];
  readonly after?: Uint8Array;
  readonly before?: Uint8Array;
  readonly limit?: number;
  /** Of a scan: the bucket it continues in (0 for a key-order scan). */
  readonly bucket?: number;
}

/**
 * For tests: a PartitionReader that passes every call to `inner` and records
 * it, and the most calls that were ever in flight at once. `delayMs` holds
 * each call open so concurrency bounds become observable.
 */
export function recordingPartitionReader(inner: PartitionReader, { delayMs = 0 }: { delayMs?: number } = {}) {
  const calls: RecordedRead[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const track = async <T>(call: RecordedRead, run: () => Promise<T>): Promise<T> => {
    calls.push(call);
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    try {
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return await run();
    } finally {
      inFlight--;
    }
  };
  const reader: PartitionReader = {
    get: (namespace, id, key) => track({ kind: 'get', namespace, id, key }, () => inner.get(namespace, id, key)),
    getKeys: (namespace, id, keys) => track({ kind: 'getKeys', namespace, id, keys }, () => inner.getKeys(namespace, id, keys)),
    page: (namespace, id, query) =>
      track({ kind: 'page', namespace, id, limit: query.limit, ...(query.after === undefined ? {} : { after: query.after }), ...(query.before === undefined ? {} : { before: query.before }) }, () => inner.page(namespace, id, query)),
    scan: (namespace, id, query) =>
      track(
        { kind: 'scan', namespace, id, limit: query.limit, ...(query.from === undefined ? {} : { bucket: query.from.bucket, ...(query.from.after === undefined ? {} : { after: query.from.after }) }) },
        () => inner.scan(namespace, id, query),
      ),
    scanMany: (namespace, ids, query) => track({ kind: 'scanMany', namespace, id: ids[0] ?? '', ids, limit: query.limit }, () => inner.scanMany(namespace, ids, query)),
    replicaGroups: (ids) => inner.replicaGroups(ids),
  };
  return {
    reader,
    calls,
    maxInFlight: () => maxInFlight,
    reset: () => void (calls.length = 0),
  };
}
