import type { Cell, Mutation } from '../../sinks/store/TwoLevelMapStore.ts';

/**
 * The contract between a stage's logic (processors/) and the runtime (streams/).
 *
 * A processor is pure: no await, no clients, no clocks, no retries. The runtime
 * decodes and validates the event, performs the point reads the processor asks
 * for, calls `process`, then executes the returned writes (all of them, through
 * `TwoLevelMapStore.mutateMany`) and produces the returned events, and commits
 * the input offset only after both succeeded or the failure was handed durably
 * to the repair topic. `process` must be deterministic in (event, reads, ctx):
 * replaying an event yields byte-identical writes, which is what makes retries,
 * duplicates and replays harmless under last-write-wins.
 *
 * A throw from `process` is a bug or a poison event: the runtime dead-letters
 * the event with the error as the reason and moves on.
 */
export interface EventProcessor<E> {
  /** Stable name: consumer group suffix, log field, metrics label. */
  readonly name: string;
  /** Point reads this event needs before `process` (may be empty). */
  reads(event: E): readonly ReadRequest[];
  /**
   * The key its source partitions the input by (e.g. an edge op's src), for
   * processors whose `exclusive` reads assume one writer per key: the runtime
   * forwards a record found in another partition to the key's own (see
   * ProcessContext.soleWriter). Absent: records are processed where they are.
   */
  routingKey?(event: E): string | undefined;
  process(event: E, reads: ReadResults, ctx: ProcessContext): ProcessorOutput;
}

/** One point read: the cell under (namespace, id, key). */
export interface ReadRequest {
  readonly namespace: string;
  readonly id: string;
  readonly key: Uint8Array;
  /**
   * The event decides on this cell's current value and writes it back (a read
   * before write): a later event of the same chunk that asks for the same cell
   * is processed in a later round, after this one's writes landed, so it reads them.
   */
  readonly exclusive?: boolean;
}

/** What the runtime read for `reads(event)`; `get` of an unrequested cell throws. */
export interface ReadResults {
  get(request: ReadRequest): Cell | undefined;
}

/** Facts the runtime supplies, so processors never read a clock. */
export interface ProcessContext {
  /** Wall-clock time of processing, microseconds since the epoch. */
  readonly wallClockMicros: bigint;
  /**
   * True when no other runner applies events of this event's routing key at
   * the same time: the input's consumer, in the partition the key maps to,
   * one round per exclusive cell. False (or absent) in a repair runner, whose
   * re-runs can race the input consumer on one cell.
   */
  readonly soleWriter?: boolean;
}

/** An event to publish, by logical topic (the runtime maps it to a real topic name). */
export interface Emit<V = unknown> {
  readonly topic: LogicalTopic;
  readonly key: string;
  readonly value: V;
}

/** Logical topics; real names are `<prefix><name>` (see schemas/config). */
export type LogicalTopic = 'edge-mutations' | 'wide-partitions' | 'split-plans' | 'split-results';

export interface ProcessorOutput {
  /** Writes to apply; order does not matter (each carries its own write time). */
  readonly writes: readonly Mutation[];
  /**
   * Further write waves, in order: wave i is sent only after every write of
   * `writes` and of the waves before it landed (and all before the
   * follow-ups), at their own write times; none is sent once a write of the
   * event failed. For cells whose presence tells a later read that earlier
   * writes landed (a link, after the index entries it supersedes were
   * deleted), or that may be trusted only once they did (an exact index entry,
   * after both its link cells).
   */
  readonly laterWaves?: readonly (readonly Mutation[])[];
  /**
   * Writes applied only after every write of `writes` succeeded, stamped with the
   * runtime's wall clock read at that moment (microseconds). Used for "this changed"
   * markers (e.g. degree recount marks): a marker stamped after the change landed lets
   * a recounter delete markers older than its own start without losing a change.
   */
  readonly followUps: readonly FollowUpWrite[];
  /** Events to publish before the input offset is committed. */
  readonly emits: readonly Emit[];
}

/** `writes` then each of `laterWaves`, in the order they must land. */
export const writeWaves = (output: ProcessorOutput): readonly (readonly Mutation[])[] => [output.writes, ...(output.laterWaves ?? [])];

/** Every wave's writes in one list, for a caller that applies an output in one call (a test or benchmark that cannot fail halfway). */
export const allWrites = (output: ProcessorOutput): readonly Mutation[] => writeWaves(output).flat();

/** A mutation whose write time the runtime sets (see `ProcessorOutput.followUps`). */
export type FollowUpWrite = Omit<Mutation, 'writeTime'>;

export const NO_OUTPUT: ProcessorOutput = Object.freeze({ writes: [], followUps: [], emits: [] });
