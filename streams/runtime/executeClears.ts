import type { TwoLevelMapStore } from '../../sinks/store/index.ts';
import { mapBounded } from '../../sinks/store/mapBounded.ts';
import type { RetrySchedule } from './backoff.ts';
import { classifyFailure } from './classifyFailure.ts';
import type { WriteFailure } from './executeWrites.ts';
import { describeError, PipelineError } from './PipelineError.ts';

/** A whole-partition deletion at `writeTime` (a ClearingMutation, see processors/contract). */
export interface PartitionClear {
  readonly namespace: string;
  readonly id: string;
  readonly writeTime: bigint;
}

/**
 * Writes partition tombstones with `keepNewest(id, 0, writeTime)`, which reads
 * nothing and hides every cell written at <= writeTime (the runtime obligation
 * of processors/contract/ClearingMutation.ts). Each clear is its own call, so
 * its time never depends on what else the chunk writes to the partition (a
 * clear merged into one `mutateMany` with another event's additions at the
 * same time would be lowered to T-1 and lose the tie it must win). Retriable
 * failures are retried while the schedule allows; returns the failures by
 * index. Throws FATAL on a fatal failure.
 */
export async function executeClears(
  store: TwoLevelMapStore,
  clears: readonly PartitionClear[],
  concurrency: number,
  schedule: RetrySchedule,
  onRetry: () => void = () => {},
): Promise<Map<number, WriteFailure>> {
  const failures = new Map<number, WriteFailure>();
  let pending = clears.map((_, i) => i);
  while (pending.length > 0) {
    const settled = await mapBounded(pending, concurrency, async (i) => {
      const c = clears[i] as PartitionClear;
      await store.namespace(c.namespace).keepNewest(c.id, 0, c.writeTime);
    });
    const retry: number[] = [];
    settled.forEach((result, j) => {
      const i = pending[j] as number;
      if (result.status === 'fulfilled') {
        failures.delete(i);
        return;
      }
      const decision = classifyFailure('store', result.reason);
      if (decision === 'fatal') throw new PipelineError('FATAL', `partition clear failed: ${describeError(result.reason)}`, { cause: result.reason });
      failures.set(i, { error: result.reason, decision: decision === 'retry' ? 'repair' : 'dead-letter' });
      if (decision === 'retry') retry.push(i);
    });
    pending = retry;
    if (pending.length === 0 || !(await schedule.wait())) break;
    onRetry();
  }
  return failures;
}
