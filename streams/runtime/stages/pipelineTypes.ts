import type { ConsumedRecord, RecordHeaders } from '../../kafka/index.ts';
import type { Logger } from 'pino';
import type { Emit, EventProcessor, ProcessorOutput, ReadRequest } from '../../../processors/index.ts';
import type { TwoLevelMapStore } from '../../../sinks/store/index.ts';
import type { RetryPolicy } from '../failures/backoff.ts';
import type { Clock } from '../Clock.ts';
import type { KeyPartitioner } from '../consumer/keyPartitioner.ts';
import type { DlqReason } from '../failures/headers.ts';
import type { RuntimeMetrics } from '../runtimeMetrics.ts';

/** The verdict of event validation (zod or hand-written), injected into the runtime. */
export type ValidationResult<E> =
  | { readonly ok: true; readonly event: E }
  | { readonly ok: false; readonly field: string; readonly reason: string };

/** What the runtime tells a validator about a record besides its event. */
export interface ValidationContext {
  /** The processing wall clock, µs. */
  readonly wallClockMicros: bigint;
  /** The repair runner re-runs an event that its input runner validated and accepted. */
  readonly repair: boolean;
  /** The record carries `edgestream-replay-forced`: `edgestream replay --force` re-published it, the operator having accepted its age. */
  readonly replayForced: boolean;
}

/**
 * Checks a decoded event against the config and the record's context (the
 * wall clock bounds its event time). Pure; a throw is treated as a bug in the
 * validator (fatal).
 */
export type ValidateEvent<E> = (event: E, at: ValidationContext) => ValidationResult<E>;

/** What became of one consumed record. */
export type RecordOutcome =
  | { readonly kind: 'done' }
  | { readonly kind: 'dead-letter'; readonly reason: DlqReason; readonly error: string; readonly field?: string }
  | {
      readonly kind: 'repair';
      readonly failedNamespaces: readonly string[];
      readonly error: string;
      /**
       * The key to publish the repair record under: the event's routing key
       * (EventProcessor.routingKey), so it lands on the repair partition the
       * key's input consumer watches. Absent: the record's own key.
       */
      readonly routingKey?: string;
    }
  /**
   * Not settled yet: come back at `untilMs`. The batch handler commits the
   * records before the first deferred one and pauses the partition until
   * then (records after it are re-delivered with it).
   */
  | { readonly kind: 'defer'; readonly untilMs: number };

/** A record to produce (emits, repair and DLQ records). */
export interface OutRecord {
  readonly topic: string;
  readonly key: Buffer | string | null;
  readonly value: Buffer | null;
  readonly headers?: RecordHeaders;
  /** CreateTime in ms; the repair runner measures its back-off from it. */
  readonly timestamp?: string;
}

/** Produces records with acks=all; resolves once every record is acknowledged. */
export interface Publisher {
  publish(records: readonly OutRecord[]): Promise<void>;
}

/** Everything one run of the pipeline needs; built once per runtime. */
export interface PipelineDeps<E> {
  readonly processor: EventProcessor<E>;
  /** Kafka value → event; throws DecodeError (serde) for bad bytes. */
  readonly decode: (value: Buffer) => Promise<E>;
  readonly validate: ValidateEvent<E>;
  readonly store: TwoLevelMapStore;
  /** Emit → the record to produce (encodes with the topic's schema). */
  readonly encodeEmit: (emit: Emit) => Promise<OutRecord>;
  readonly publisher: Publisher;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Retries of reads, writes, follow-ups and emits. */
  readonly retry: RetryPolicy;
  readonly readConcurrency: number;
  readonly metrics: RuntimeMetrics;
  /**
   * The input consumer's: where records keyed by a routing key belong. With it,
   * a record of a processor with `routingKey` found in another partition is
   * forwarded there, and events are processed as their key's sole writer.
   * Absent (the repair runner): records are processed where they are, never as sole writer.
   */
  readonly partitionOfKey?: KeyPartitioner;
  /** With `partitionOfKey`: whether the input partition's repairs are in flight (RepairWatch); then no event of it is a sole writer. */
  readonly repairsPending?: (partition: number) => Promise<boolean>;
  /** The idempotency token of an event, for log lines. */
  readonly mutationIdOf: (event: E) => string | undefined;
  /** The repair runner's: every record re-runs an event the input runner accepted (ValidationContext `repair`). */
  readonly repairRunner?: boolean;
}

/** A consumed record as the runtime's chunk logic sees it: the Kafka port's. */
export type { ConsumedRecord };

/** One record's working state while a chunk runs through the pipeline. */
export interface Slot<E> {
  readonly message: ConsumedRecord;
  event?: E;
  reads?: readonly ReadRequest[];
  /** `readKey` of each of `reads`, built once per chunk (the round split and the read stage both need them). */
  readKeys?: readonly string[];
  output?: ProcessorOutput;
  /** Set once, when the record's fate is decided before the end of the chunk. */
  outcome?: RecordOutcome;
}

export interface ChunkSource {
  readonly topic: string;
  readonly partition: number;
}
