import type { StopReason } from './readBudget.ts';

/**
 * A read that returns one answer (a neighbour page, a property bag, a
 * multi-get) hit its read budget, deadline or the caller's abort before it
 * had the answer: nothing is returned. `reason` says which; the message names
 * the bound (`maxRows`, `maxQueries`, `deadlineMs`). Not retriable as is: ask
 * again with other bounds (or, for a page, a smaller `limit`).
 */
export class ReadLimitError extends Error {
  readonly code = 'read_limit' as const;
  readonly retriable = false as const;

  readonly reason: StopReason;
  readonly spent: { readonly queries: number; readonly rows: number };

  constructor(reason: StopReason, spent: { readonly queries: number; readonly rows: number }, what: string) {
    super(`${what}: ${describeStop(reason)} after ${spent.queries} partition reads and ${spent.rows} rows`);
    this.reason = reason;
    this.spent = spent;
    this.name = 'ReadLimitError';
  }
}

function describeStop(reason: StopReason): string {
  switch (reason) {
    case 'deadline':
      return 'deadlineMs passed';
    case 'aborted':
      return 'aborted by the caller';
    case 'read_budget':
      return 'read budget (maxRows / maxQueries) spent';
    default: {
      const never: never = reason;
      return String(never);
    }
  }
}

/** True for a ReadLimitError, even from a second copy of this module. */
export function isReadLimitError(e: unknown): e is ReadLimitError {
  return e instanceof Error && (e as { code?: unknown }).code === 'read_limit';
}
