/** Why a multi-read operation stopped before it had read everything it was asked for. */
export type StopReason = 'deadline' | 'aborted' | 'read_budget';
/** A stop, or a traversal hop that reached its cap (`hop_cap`) with links left unread. */
export type PartialReason = StopReason | 'hop_cap';

export interface ReadBudgetLimits {
  /** Most cells read in total (pages and point reads). */
  readonly maxRows: number;
  /** Most partition reads (a page or a point read each). */
  readonly maxQueries: number;
  /** From creation; the budget is `deadline`-stopped after it. */
  readonly deadlineMs: number;
  /** The caller's cancellation; aborting it stops the budget as `aborted`. */
  readonly signal?: AbortSignal;
}

/**
 * The bounds of one multi-read operation. A read first `claim`s: one query
 * and up to the rows it asks for, out of what is left (rows are reserved, so
 * reads in flight together never exceed `maxRows`), then `settle`s with the
 * rows it actually got, returning the rest.
 */
export interface ReadBudget {
  /** Why no further read may start: deadline or abort first, then an exhausted budget. */
  stopReason(): StopReason | undefined;
  /** Takes one query and min(rows, rows left) rows; call only when `stopReason()` is undefined. */
  claim(rows: number): number;
  /** Returns the part of a claim of `granted` rows that a read of `read` rows did not use. */
  settle(granted: number, read: number): void;
  /** Resolves with the reason when the deadline passes or the signal aborts (never otherwise). */
  readonly interrupted: Promise<StopReason>;
  readonly spent: { readonly queries: number; readonly rows: number };
  /** Clears the deadline timer and the signal listener. */
  dispose(): void;
}

export function createReadBudget(limits: ReadBudgetLimits): ReadBudget {
  let queries = 0;
  let rows = 0;
  let reserved = 0;
  let interruptedBy: StopReason | undefined;
  let resolveInterrupted: (reason: StopReason) => void = () => undefined;
  const interrupted = new Promise<StopReason>((resolve) => (resolveInterrupted = resolve));
  const interrupt = (reason: StopReason) => {
    interruptedBy ??= reason;
    resolveInterrupted(interruptedBy);
  };
  const timer = setTimeout(() => interrupt('deadline'), limits.deadlineMs);
  timer.unref();
  const onAbort = () => interrupt('aborted');
  if (limits.signal?.aborted) interrupt('aborted');
  else limits.signal?.addEventListener('abort', onAbort, { once: true });

  return {
    stopReason() {
      if (interruptedBy !== undefined) return interruptedBy;
      return queries >= limits.maxQueries || rows + reserved >= limits.maxRows ? 'read_budget' : undefined;
    },
    claim(wanted) {
      const granted = Math.max(1, Math.min(wanted, limits.maxRows - rows - reserved));
      queries++;
      reserved += granted;
      return granted;
    },
    settle(granted, read) {
      reserved -= granted;
      rows += Math.min(read, granted);
    },
    interrupted,
    get spent() {
      return { queries, rows };
    },
    dispose() {
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', onAbort);
    },
  };
}
