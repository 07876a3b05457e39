import { StoreError, type MutationFailure } from './StoreError.ts';

/**
 * For store decorators that send other mutations than they were given: the
 * `partial_failure` of the sent list restated in the caller's indexes
 * (`originOf[i]` = the caller's mutation that sent mutation i came from), so
 * the caller repairs exactly the mutations whose writes failed.
 */
export function remapPartialFailure(e: StoreError, originOf: readonly number[]): StoreError {
  const failures: MutationFailure[] = e.failures.map((f) => ({
    error: f.error,
    mutationIndexes: [...new Set(f.mutationIndexes.map((i) => originOf[i] as number))],
  }));
  return new StoreError('partial_failure', e.message, { cause: e.cause ?? e, failures });
}
