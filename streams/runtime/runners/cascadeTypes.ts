import type { Emit, ReadRequest } from '../../../processors/index.ts';
import type { Cell } from '../../../sinks/store/index.ts';

/** A partition the cascade pages through. */
export interface CascadeSource {
  readonly namespace: string;
  readonly id: string;
}

/** What one triggering event cascades over. */
export interface CascadePlan {
  /** The cell that gates the cascade (e.g. the node tombstone): read fresh each time the event is considered. */
  readonly gate: ReadRequest;
  /** Partitions to page through, in order (e.g. `T_out[v]`, `T_in[v]` for every edge type). */
  readonly sources: readonly CascadeSource[];
}

/** Whether to run the cascade now. */
export type CascadeGate =
  | { readonly kind: 'go' }
  /** Not yet (e.g. the tombstone is visible but not settled): look again at `untilMs` (wall clock). */
  | { readonly kind: 'wait'; readonly untilMs: number }
  /**
   * The gate cell is not written yet (e.g. the fan-out has not processed the REMOVE_NODE):
   * the runner waits for the upstream group to commit past the record, then at most its
   * give-up time, and dead-letters the event with `what` in the reason. Look again at `recheckAtMs`.
   */
  | { readonly kind: 'absent'; readonly recheckAtMs: number; readonly what: string };

export interface CascadeGateContext {
  readonly wallClockMicros: bigint;
}

/**
 * The pure logic of an asynchronous cascade (processors/cascade implements it
 * for REMOVE_NODE). No I/O, no clocks: the cascade runner reads, pages,
 * publishes, retries and commits. Every function must be deterministic, so a
 * replayed cascade publishes identical events (deterministic mutation ids).
 */
export interface CascadeLogic<E> {
  /** Consumer group suffix and log label. */
  readonly name: string;
  /** The cascade `event` starts, or undefined for events that start none (most of them). */
  plan(event: E): CascadePlan | undefined;
  gate(event: E, gateCell: Cell | undefined, ctx: CascadeGateContext): CascadeGate;
  /** The events to publish for one page of one source partition (may be empty). */
  emitsForPage(event: E, gateCell: Cell, source: CascadeSource, cells: readonly Cell[]): readonly Emit[];
}
