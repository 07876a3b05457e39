import type { KeyValue } from '../sinks/store/index.ts';
import type { PartitionReader } from './PartitionReader.ts';
import type { ReadCounters, ReadSample } from './ReadCounters.ts';
import type { ReadObserver } from './ReadObserver.ts';
import type { ValidationGuesses } from './validationGuesses.ts';

/** What every read operation of one EdgeReader shares. */
export interface ReadContext {
  readonly partitions: PartitionReader;
  readonly counters: ReadCounters;
  readonly observer: ReadObserver;
  /** Runs a point or multi-key read, at most `readConcurrency` of them in flight across the reader. */
  readonly limitPointRead: <T>(read: () => Promise<T>) => Promise<T>;
  /** Largest page asked of the PartitionReader. */
  readonly maxPageCells: number;
  /** Which links a newest page at a position validated last time (read early by the next read there). */
  readonly validationGuesses: ValidationGuesses;
}

/** The counter sample of some cells read (absent point reads cost no bytes or rows). */
export function sampleOf(cells: readonly (KeyValue | undefined)[], rowsReturned: number): ReadSample {
  let bytesRead = 0;
  let rowsRead = 0;
  for (const c of cells) {
    if (c === undefined) continue;
    bytesRead += c.key.length + c.value.length;
    rowsRead++;
  }
  return { bytesRead, rowsRead, rowsReturned };
}

/** The cells of `keys` in one partition, in the order of `keys`: one `getKeys` request, bounded by the reader's concurrency. */
export function getKeys(ctx: ReadContext, namespace: string, id: string, keys: readonly Uint8Array[]): Promise<(KeyValue | undefined)[]> {
  return keys.length === 0 ? Promise.resolve([]) : ctx.limitPointRead(() => ctx.partitions.getKeys(namespace, id, keys));
}
