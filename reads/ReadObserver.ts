/** The reader's operations, as metrics label them. */
export type ReadOperation = 'edge' | 'edges' | 'out' | 'in' | 'timeRange' | 'props' | 'count' | 'traverse';

/** One finished reader call. */
export interface ReadObservation {
  readonly operation: ReadOperation;
  /** From the call to its answer or error. */
  readonly seconds: number;
  /** Calls it made to the PartitionReader port (point reads and pages; a page of a split partition counts once). */
  readonly queries: number;
  /** `invalid`: a ReadArgumentError; `error`: any other throw. */
  readonly outcome: 'ok' | 'invalid' | 'error';
}

/**
 * What the reader tells a metrics layer (metrics/createReadMetrics). Called
 * synchronously on the read path, so it must be cheap and must not throw.
 */
export interface ReadObserver {
  read(observation: ReadObservation): void;
  /** `props(…, keys)` asked its read-aside cache for `lookups` keys and found `hits` fresh. */
  propertyCache(lookups: number, hits: number): void;
  /** A newest page read looked for a validation guess (reads/validationGuesses); `hit`: one covered every peer of its slice. */
  pageValidationGuess(hit: boolean): void;
}

/** Observes nothing: the reader's default (and then it does not time or count anything). */
export const NO_READ_OBSERVER: ReadObserver = Object.freeze({ read: () => undefined, propertyCache: () => undefined, pageValidationGuess: () => undefined });
