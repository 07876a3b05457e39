import type { EdgeMutation } from '../generated/EdgeMutation.ts';
import { edgeMutationSchema, type ValidationConfig } from './edgeMutationSchema.ts';
import { eventTimeProblem, type EventTimeContext } from './eventTimeBounds.ts';

/**
 * The verdict on one decoded event. A rejection names the offending field by
 * its path (`src`, `properties.color`, `property_keys.2`) and says why; the
 * runtime dead-letters the event with `<field>: <reason>` as the DLQ reason.
 */
export type EdgeMutationValidation =
  | { readonly ok: true; readonly event: EdgeMutation }
  | { readonly ok: false; readonly field: string; readonly reason: string };

/**
 * Checks a decoded EdgeMutation's semantics before any write
 * (docs/architecture.md §5): ids non-empty, at most `limits.maxVertexIdBytes`
 * / `maxMutationIdBytes` UTF-8 bytes and free of U+0000; a configured edge
 * type (REMOVE_NODE: empty edge type and dst, since it cascades over every
 * type); properties only on ADD_EDGE / SET_PROPERTIES and property_keys only
 * on REMOVE_PROPERTIES, within the count, name and encoded-size limits, with
 * `__proto__`, `constructor` and `prototype` rejected as names;
 * `minEventTimeMicros <= event_time`, and event_time within the skew window
 * ahead of the wall clock and the resurrection horizon behind it
 * (eventTimeProblem: which bound applies depends on `at`).
 *
 * Self-loops (src === dst) are valid: a vertex may follow itself, and every
 * namespace handles them (the props bag id is `v ␀ v`).
 *
 * Pure: the wall clock is an argument. Returns the input event itself (not a
 * copy) when it is valid, so Buffers are not cloned.
 */
export function validateEdgeMutation(event: unknown, config: ValidationConfig, at: EventTimeContext): EdgeMutationValidation {
  const parsed = edgeMutationSchema(config).safeParse(event);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, field: issue === undefined || issue.path.length === 0 ? '(event)' : issue.path.join('.'), reason: issue?.message ?? 'invalid' };
  }
  const valid = event as EdgeMutation;
  const problem = eventTimeProblem(valid.event_time, config, at);
  return problem === undefined ? { ok: true, event: valid } : { ok: false, field: 'event_time', reason: problem };
}
