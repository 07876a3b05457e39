import type { EdgeMutation } from '../../schemas/index.ts';
import { validateEdgeMutation, type ValidationConfig } from '../../schemas/validation/index.ts';
import { ProducerError } from './ProducerError.ts';

export type Properties = EdgeMutation['properties'];

/** Fields every call may set; both are filled when absent. */
export interface CommonArgs {
  /**
   * µs since the epoch, within `limits.maxFutureSkewMs` ahead and the resurrection horizon behind
   * the wall clock; default: the producer's strictly increasing wall clock, or, for a `mutationId`
   * this producer sent before, the time it was sent with.
   */
  readonly eventTime?: bigint;
  /** Idempotency token; default: a random UUID. Reuse it when retrying the same logical mutation (it then keeps its event time). */
  readonly mutationId?: string;
}

export interface EdgeArgs extends CommonArgs {
  readonly type: string;
  readonly src: string;
  readonly dst: string;
}

/** What an op that writes a whole link value (add, hide, unhide) may carry besides the edge. */
export interface EdgeValueArgs extends EdgeArgs {
  /** µs; the edge's place in newest-first pages. Default: the event time. Last write wins on the event time, not on this. */
  readonly edgeTime?: bigint;
  /** A small opaque payload kept on the edge (≤ limits.maxEdgeDataBytes) and returned with it by pages and point reads. */
  readonly data?: Uint8Array;
}

/** SDK argument name of each event field, for error messages. */
const ARGUMENT_OF_FIELD: Readonly<Record<string, string>> = {
  edge_type: 'type',
  event_time: 'eventTime',
  mutation_id: 'mutationId',
  property_keys: 'keys',
  edge_time: 'edgeTime',
};

/**
 * Builds and validates an EdgeMutation with the rules the runtime applies
 * (schemas/validation), so a bad call fails at the caller instead of landing
 * in the DLQ. Throws ProducerError INVALID_ARGUMENT naming the argument.
 */
export function buildMutation(
  fields: Omit<EdgeMutation, 'mutation_id' | 'event_time'> & { readonly mutation_id: string; readonly event_time: bigint },
  config: ValidationConfig,
  wallClockMicros: bigint,
): EdgeMutation {
  const verdict = validateEdgeMutation(fields, config, { wallClockMicros });
  if (verdict.ok) return verdict.event;
  const [head = '', ...rest] = verdict.field.split('.');
  const argument = [ARGUMENT_OF_FIELD[head] ?? head, ...rest].join('.');
  throw new ProducerError('INVALID_ARGUMENT', `${fields.op}: ${argument}: ${verdict.reason}`, { argument });
}
