import type { EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import type { RetryPolicy } from './failures/backoff.ts';

/**
 * Knobs of the runtime that are not in the edgestream config file (all
 * `tunable`: safe to change between runs). Defaults are inline below.
 */
export interface RuntimeTuning {
  /** Caps one fetch per partition (kafkajs maxBytesPerPartition); with one batch per partition in flight this bounds memory. */
  readonly maxBytesPerPartition: number;
  /** Records per pipeline run; offsets are committed after each chunk. */
  readonly maxRecordsPerChunk: number;
  /**
   * Chunks of one input partition run at once (the fan-out), one edge's ops in
   * offset order (runChunksPipelined): what lets one hot source use the store.
   */
  readonly chunksInFlightPerPartition: number;
  /** Point reads in flight per chunk. */
  readonly readConcurrency: number;
  /** First back-off of read/write/emit retries; doubles up to `retryMaxBackoffMs`, all within `runtime.writeRetryBudgetMs`. */
  readonly retryInitialBackoffMs: number;
  readonly retryMaxBackoffMs: number;
  /** How often progress (events/s, suppression) is logged at info. */
  readonly progressIntervalMs: number;
  readonly sessionTimeoutMs: number;
  /**
   * How long a fetch waits for data (kafkajs maxWaitTimeInMs). A partition
   * resumed after a pause is fetched again only when the fetch in flight
   * returns, so runners that pause (repair, cascade) wait up to this long
   * beyond a record's due time: they default to a shorter wait.
   */
  readonly maxWaitTimeMs: number;
  /** A fetch waits for this many bytes of records, up to `maxWaitTimeMs` (kafkajs minBytes); 1 returns as soon as any are there. */
  readonly fetchMinBytes: number;
  /** Where a brand-new consumer group starts: true = earliest, so events produced before the first start are not skipped. */
  readonly fromBeginning: boolean;
}

export function resolveTuning(config: EdgestreamConfig, overrides: Partial<RuntimeTuning> = {}): RuntimeTuning {
  const tuning: RuntimeTuning = {
    maxBytesPerPartition: 1 << 20,
    maxRecordsPerChunk: 500,
    chunksInFlightPerPartition: 4,
    readConcurrency: config.runtime.writeConcurrency,
    retryInitialBackoffMs: 100,
    retryMaxBackoffMs: 2_000,
    progressIntervalMs: 10_000,
    sessionTimeoutMs: config.runtime.sessionTimeoutMs,
    maxWaitTimeMs: 5_000,
    fetchMinBytes: 1,
    fromBeginning: true,
    ...overrides,
  };
  for (const [name, value] of Object.entries(tuning)) {
    if (typeof value === 'number' && !(Number.isInteger(value) && value >= 1)) {
      throw new RangeError(`runtime tuning ${name} must be an integer >= 1, got ${value}`);
    }
  }
  return Object.freeze(tuning);
}

/** The fetch of the input topic's consumers (fan-out, cascade): `runtime.inputFetch`. */
export function inputFetchTuning(config: EdgestreamConfig): Pick<RuntimeTuning, 'maxWaitTimeMs' | 'fetchMinBytes'> {
  return { maxWaitTimeMs: config.runtime.inputFetch.maxWaitMs, fetchMinBytes: config.runtime.inputFetch.minBytes };
}

/** The retry policy of a chunk's reads, writes and emits: the config's budget with the tuning's back-offs. */
export function retryPolicyOf(config: EdgestreamConfig, tuning: RuntimeTuning): RetryPolicy {
  return {
    budgetMs: config.runtime.writeRetryBudgetMs,
    initialBackoffMs: tuning.retryInitialBackoffMs,
    maxBackoffMs: tuning.retryMaxBackoffMs,
    minAttemptMs: config.runtime.writeLandingMarginMs,
  };
}

/** The consumer-loop settings every runner derives the same way from the config and its tuning. */
export function consumerLoopSettings(config: EdgestreamConfig, tuning: RuntimeTuning) {
  return {
    partitionsConsumedConcurrently: config.runtime.partitionsConsumedConcurrently,
    maxBytesPerPartition: tuning.maxBytesPerPartition,
    sessionTimeoutMs: tuning.sessionTimeoutMs,
    maxWaitTimeMs: tuning.maxWaitTimeMs,
    fetchMinBytes: tuning.fetchMinBytes,
    fromBeginning: tuning.fromBeginning,
    progressIntervalMs: tuning.progressIntervalMs,
  } as const;
}
