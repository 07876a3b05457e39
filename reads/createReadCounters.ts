import type { EdgestreamConfig } from '../schemas/config/edgestreamConfig.ts';
import type { OnWidePartition, ReadCounters } from './ReadCounters.ts';
import { createSlidingWindowTally, type SlidingWindowTally } from './slidingWindowTally.ts';

export interface ReadCountersOptions {
  /** `config.wide`: windowMs, thresholdBytes, thresholdRows, coolDownMs. */
  readonly wide: Pick<EdgestreamConfig['wide'], 'windowMs' | 'thresholdBytes' | 'thresholdRows' | 'coolDownMs'>;
  /**
   * Runs synchronously inside the read that crossed a threshold, so it must not
   * throw or block: the composition root hands the event to a Kafka producer
   * and handles that promise itself.
   */
  readonly onWide: OnWidePartition;
  /** Wall clock, ms since the epoch. Default Date.now. */
  readonly clock?: () => number;
  /** Sub-window slots per window (the window's granularity). Default 12. */
  readonly slots?: number;
  /** Partitions tracked at once; the least recently read is forgotten first. Default 10 000. */
  readonly maxPartitions?: number;
}

interface PartitionState {
  readonly tally: SlidingWindowTally;
  /** When this partition was last reported, ms; undefined if never (while tracked). */
  reportedAt: number | undefined;
}

/**
 * Per-(namespace, partition) read counters over a sliding window that report a
 * partition as wide when its bytes or rows within the window reach a threshold,
 * at most once per `coolDownMs`. Memory is bounded twice: a fixed ring of slots
 * per partition, and at most `maxPartitions` partitions (a Map in touch order:
 * re-inserting on every record makes its first key the least recently read).
 * Forgetting a partition forgets its cool-down too; only a partition nobody has
 * read for a while is forgotten, so a repeated report is rare and harmless
 * (the planner treats wide-partition events idempotently).
 */
export function createReadCounters(opts: ReadCountersOptions): ReadCounters {
  const { windowMs, thresholdBytes, thresholdRows, coolDownMs } = opts.wide;
  const slots = opts.slots ?? 12;
  const maxPartitions = opts.maxPartitions ?? 10_000;
  if (!Number.isInteger(slots) || slots < 1) throw new RangeError(`slots must be a positive integer, got ${slots}`);
  if (!Number.isInteger(maxPartitions) || maxPartitions < 1) throw new RangeError(`maxPartitions must be a positive integer, got ${maxPartitions}`);
  const slotMs = windowMs / slots;
  const clock = opts.clock ?? Date.now;
  const partitions = new Map<string, PartitionState>();

  const touch = (key: string): PartitionState => {
    let state = partitions.get(key);
    if (state !== undefined) partitions.delete(key);
    else state = { tally: createSlidingWindowTally(slots, slotMs), reportedAt: undefined };
    partitions.set(key, state);
    if (partitions.size > maxPartitions) partitions.delete(partitions.keys().next().value as string);
    return state;
  };

  return {
    record(namespace, partitionId, { bytesRead, rowsRead, rowsReturned }) {
      const now = clock();
      const state = touch(`${namespace}\u0000${partitionId}`);
      const totals = state.tally.add(now, bytesRead, rowsRead, rowsReturned);
      if (totals.bytes < thresholdBytes && totals.rows < thresholdRows) return;
      if (state.reportedAt !== undefined && now - state.reportedAt < coolDownMs) return;
      state.reportedAt = now;
      opts.onWide({
        namespace,
        partition_id: partitionId,
        bytes_read: BigInt(totals.bytes),
        rows_read: BigInt(totals.rows),
        rows_returned: BigInt(totals.returned),
        detected_at: BigInt(Math.floor(now * 1000)),
        immutable: false, // link partitions keep receiving writes
        window_ms: BigInt(windowMs),
      });
    },
  };
}
