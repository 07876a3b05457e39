import { splitNamespace, versionOf, type SplitStrategy, type WideRowRecord } from '../../sinks/namespaces/index.ts';

/**
 * What each stage of the chain does with a task, given the partition's
 * wide_rows record (docs/architecture.md §6). Stages are idempotent: a task
 * delivered twice, or after a crash, finds the record where the last run left
 * it and either resumes, re-announces the next stage, or skips.
 */
export type PlannerDecision =
  | { readonly kind: 'plan'; readonly generation: number; readonly attempts: number; readonly resume: boolean }
  /** Already planned: publish the split task again (the crash came between recording and publishing). */
  | { readonly kind: 'announce'; readonly record: WideRowRecord }
  | { readonly kind: 'skip'; readonly reason: string };

export function plannerDecision(record: WideRowRecord | undefined): PlannerDecision {
  if (record === undefined) return { kind: 'plan', generation: 1, attempts: 1, resume: false };
  switch (record.status) {
    case 'FAILED':
      return { kind: 'plan', generation: record.generation + 1, attempts: record.attempts + 1, resume: false };
    case 'PLANNING':
      return { kind: 'plan', generation: record.generation, attempts: record.attempts, resume: true };
    case 'PLANNED':
      return { kind: 'announce', record };
    default:
      return { kind: 'skip', reason: `already ${record.status} (generation ${record.generation})` };
  }
}

export interface StageTask {
  readonly generation: number;
}

export type SplitterDecision =
  | { readonly kind: 'copy'; readonly record: WideRowRecord }
  /** Writers may not all mirror yet: come back at `untilMicros`. */
  | { readonly kind: 'wait'; readonly untilMicros: number }
  | { readonly kind: 'announce'; readonly record: WideRowRecord }
  | { readonly kind: 'skip'; readonly reason: string };

export function splitterDecision(record: WideRowRecord | undefined, task: StageTask, nowMicros: number, barrierMs: number): SplitterDecision {
  const stale = staleness(record, task);
  if (stale !== undefined) return { kind: 'skip', reason: stale };
  const r = record as WideRowRecord;
  if (r.status === 'SPLIT') return { kind: 'announce', record: r };
  if (r.status !== 'PLANNED' && r.status !== 'SPLITTING') return { kind: 'skip', reason: `status is ${r.status}` };
  const until = (r.plannedAt ?? r.updatedAt) + barrierMs * 1_000;
  return nowMicros < until ? { kind: 'wait', untilMicros: until } : { kind: 'copy', record: r };
}

export type VerifierDecision = { readonly kind: 'verify'; readonly record: WideRowRecord } | { readonly kind: 'skip'; readonly reason: string };

export function verifierDecision(record: WideRowRecord | undefined, task: StageTask): VerifierDecision {
  const stale = staleness(record, task);
  if (stale !== undefined) return { kind: 'skip', reason: stale };
  const r = record as WideRowRecord;
  return r.status === 'SPLIT' ? { kind: 'verify', record: r } : { kind: 'skip', reason: `status is ${r.status}` };
}

function staleness(record: WideRowRecord | undefined, task: StageTask): string | undefined {
  if (record === undefined) return 'no wide_rows record';
  if (record.generation !== task.generation) return `task is for generation ${task.generation}, the record is at ${record.generation}`;
  return undefined;
}

/**
 * The stamps of the record that replaces `record`: `version` (its write time)
 * is the replaced version + 1 and never reads a clock, so a stage that acts
 * on a stale read (a zombie, whatever its clock) writes at or below the
 * version of every record the chain wrote since, and loses; `updatedAt` is
 * the wall clock, for people. The first record is version 1. A record
 * written before versions existed continues from its write time, `updatedAt`.
 */
export function nextStamps(record: WideRowRecord | undefined, nowMicros: number): { readonly version: number; readonly updatedAt: number } {
  return { version: record === undefined ? 1 : versionOf(record) + 1, updatedAt: nowMicros };
}

/** The record the planner writes before it scans: PLANNING, nothing mirrored yet. */
export function planningRecord(
  previous: WideRowRecord | undefined,
  at: { namespace: string; partitionId: string; strategy: SplitStrategy; generation: number; attempts: number; detected?: WideRowRecord['detected'] },
  nowMicros: number,
): WideRowRecord {
  return {
    namespace: at.namespace,
    partitionId: at.partitionId,
    status: 'PLANNING',
    generation: at.generation,
    attempts: at.attempts,
    splitNamespace: splitNamespace(at.namespace),
    strategy: at.strategy,
    buckets: 0,
    boundaries: [],
    rows: 0,
    bytes: 0,
    checksum: '',
    ...(at.detected ? { detected: at.detected } : {}),
    ...nextStamps(previous, nowMicros),
  };
}
