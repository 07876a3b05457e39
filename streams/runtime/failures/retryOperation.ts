import type { RetrySchedule } from './backoff.ts';
import { classifyFailure, type Boundary } from './classifyFailure.ts';
import { describeError, PipelineError } from './PipelineError.ts';

/** The operation failed in a way that is the event's fault (`dead-letter`). */
export class EventFault extends Error {
  override readonly name = 'EventFault';
}

/**
 * Runs one operation, retrying retriable failures while the schedule allows.
 * Throws EventFault for a dead-letter decision, PipelineError FATAL for a
 * fatal one, and PipelineError BATCH_RETRY when retries run out (for runners
 * whose work is idempotent to redo, like the cascade). `op` gets the time
 * its attempt may take (what is left of the budget); a store write passes it
 * on as `mutateMany`'s `timeoutMs`, so the last attempt ends with the budget.
 */
export async function retryOperation<T>(
  what: string,
  boundary: Boundary,
  schedule: RetrySchedule,
  op: (attempt: { readonly timeoutMs: number }) => Promise<T>,
  onRetry: () => void = () => {},
): Promise<T> {
  for (;;) {
    try {
      return await op({ timeoutMs: schedule.attemptTimeoutMs() });
    } catch (e) {
      const decision = classifyFailure(boundary, e);
      const message = `${what}: ${describeError(e)}`;
      if (decision === 'dead-letter') throw new EventFault(message, { cause: e });
      if (decision === 'fatal') throw new PipelineError('FATAL', message, { cause: e });
      if (decision === 'retry' && (await schedule.wait())) {
        onRetry();
        continue;
      }
      throw new PipelineError('BATCH_RETRY', message, { cause: e });
    }
  }
}
