import { isStoreError, type Mutation, type TwoLevelMapStore } from '../../../sinks/store/index.ts';
import type { RetrySchedule } from '../failures/backoff.ts';
import { classifyFailure } from '../failures/classifyFailure.ts';
import { describeError, PipelineError } from '../failures/PipelineError.ts';

/** A mutation that did not land, and what to do about its event. */
export interface WriteFailure {
  readonly error: unknown;
  readonly decision: 'dead-letter' | 'repair';
}

/**
 * Applies `mutations` through `mutateMany` and retries the ones that failed
 * retriably (only those: a `partial_failure` names them) while `schedule`
 * allows. Returns the mutations that never landed, by index. `owners[i]` is
 * the event that produced mutation i.
 *
 * A non-retriable rejection of the whole call (`invalid_argument`,
 * `too_large`) means one poison mutation made the store refuse everything
 * before writing anything; when the call spans several events, each event's
 * mutations are re-sent on their own, so only the poison event fails.
 *
 * Throws PipelineError FATAL when the failure is a bug or a deployment error
 * (a non-StoreError, `unknown_namespace`, `closed`...): never retried.
 */
export async function executeWrites(
  store: TwoLevelMapStore,
  mutations: readonly Mutation[],
  owners: readonly number[],
  schedule: RetrySchedule,
  onRetry: () => void = () => {},
): Promise<Map<number, WriteFailure>> {
  const failures = new Map<number, WriteFailure>();
  let pending = mutations.map((_, i) => i);
  while (pending.length > 0) {
    const { failed: failedNow, wholeCall } = await attempt(store, mutations, pending, schedule.attemptTimeoutMs());
    const retry: number[] = [];
    for (const i of pending) if (!failedNow.has(i)) failures.delete(i);
    if (wholeCall !== undefined && needsIsolation(wholeCall, pending, owners)) {
      for (const group of groupByOwner(pending, owners)) {
        const sub = await executeWrites(store, group.map((i) => mutations[i] as Mutation), group.map(() => 0), schedule, onRetry);
        group.forEach((i, j) => {
          const f = sub.get(j);
          if (f === undefined) failures.delete(i);
          else failures.set(i, f);
        });
      }
      break;
    }
    for (const [i, error] of failedNow) {
      const decision = classifyFailure('store', error);
      if (decision === 'fatal') throw new PipelineError('FATAL', `store write failed: ${describeError(error)}`, { cause: error });
      failures.set(i, { error, decision: decision === 'retry' ? 'repair' : 'dead-letter' });
      if (decision === 'retry') retry.push(i);
    }
    pending = retry;
    if (pending.length === 0 || !(await schedule.wait())) break;
    onRetry();
  }
  return failures;
}

interface Attempt {
  /** Indexes (into `mutations`) that failed, with their errors. */
  readonly failed: Map<number, unknown>;
  /** Set when the call failed as a whole (not a `partial_failure`). */
  readonly wholeCall?: unknown;
}

/** One `mutateMany` over `pending`, given what is left of the budget: the last attempt ends with the budget, not a request timeout later. */
async function attempt(store: TwoLevelMapStore, mutations: readonly Mutation[], pending: readonly number[], timeoutMs: number): Promise<Attempt> {
  try {
    await store.mutateMany(pending.map((i) => mutations[i] as Mutation), { timeoutMs });
    return { failed: new Map() };
  } catch (e) {
    if (isStoreError(e) && e.code === 'partial_failure') {
      return { failed: new Map(e.failures.flatMap((f) => f.mutationIndexes.map((j) => [pending[j] as number, f.error] as const))) };
    }
    return { failed: new Map(pending.map((i) => [i, e])), wholeCall: e };
  }
}

/** The whole call was refused as poison and several events share it. */
function needsIsolation(error: unknown, pending: readonly number[], owners: readonly number[]): boolean {
  return classifyFailure('store', error) === 'dead-letter' && new Set(pending.map((i) => owners[i])).size > 1;
}

function groupByOwner(pending: readonly number[], owners: readonly number[]): number[][] {
  const groups = new Map<number, number[]>();
  for (const i of pending) {
    const owner = owners[i] as number;
    let g = groups.get(owner);
    if (g === undefined) groups.set(owner, (g = []));
    g.push(i);
  }
  return [...groups.values()];
}
