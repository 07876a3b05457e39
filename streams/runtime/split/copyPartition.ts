import { copyWrites, nextStamps, splitterDecision } from '../../../processors/split/index.ts';
import { splitMirrorBarrierMs } from '../../../schemas/config/edgestreamConfig.ts';
import type { SplitTask } from '../../../schemas/index.ts';
import { splitTargetOf, type WideRowRecord } from '../../../sinks/namespaces/index.ts';
import type { StageContext, StageOutcome } from './createSplitStageRunner.ts';
import { pageOriginal } from './pageOriginal.ts';
import { announceNextStage, hex, micros, unhex, type SplitStageDeps } from './splitStageDeps.ts';

export const SPLIT_STAGE = 'split';
const COPY_PAGE_ROWS = 1_000;

interface CopyCheckpoint {
  readonly lastKey?: string;
  readonly copiedRows: number;
}

/**
 * The splitter (docs/architecture.md §6): waits until every writer mirrors the
 * partition (`splitMirrorBarrierMs` after PLANNED), records SPLITTING, copies
 * the original page by page into its buckets at each cell's own write time
 * (checkpoint after every page), records SPLIT and publishes the verify task.
 * Writes that land meanwhile reach both layouts through the mirror; LWW makes
 * the overlap with the copy harmless.
 */
export async function copyPartition(task: SplitTask, d: SplitStageDeps, ctx: StageContext): Promise<StageOutcome> {
  const log = ctx.logger.child({ namespace: task.namespace, partition_id: task.partition_id, generation: task.generation });
  const current = await ctx.op('reading wide_rows', 'store', () => d.repository.get(task.namespace, task.partition_id));
  const decision = splitterDecision(current, task, micros(ctx.clock.nowMs()), splitMirrorBarrierMs(d.config));
  if (decision.kind === 'skip') {
    log.info({ reason: decision.reason }, 'splitter: nothing to do');
    return { kind: 'done' };
  }
  if (decision.kind === 'wait') {
    const untilMs = Math.ceil(decision.untilMicros / 1_000);
    log.info({ wait_ms: untilMs - ctx.clock.nowMs() }, 'splitter: waiting until every writer mirrors the partition');
    return { kind: 'defer', untilMs };
  }
  if (decision.kind === 'announce') {
    await announceNextStage('split-results', decision.record, ctx);
    return { kind: 'done' };
  }
  let record = decision.record;
  if (record.status === 'PLANNED') {
    const now = micros(ctx.clock.nowMs());
    const splitting: WideRowRecord = { ...record, status: 'SPLITTING', copyStartedAt: now, ...nextStamps(record, now) };
    await ctx.op('recording SPLITTING', 'store', () => d.repository.put(splitting));
    record = splitting;
  }
  const target = splitTargetOf(record);
  let checkpoint = (await ctx.op('reading the copy checkpoint', 'store', () => d.repository.getCheckpoint<CopyCheckpoint>(SPLIT_STAGE, record))) ?? { copiedRows: 0 };
  log.info({ buckets: record.buckets, strategy: record.strategy, resumed_at_row: checkpoint.copiedRows }, checkpoint.copiedRows > 0 ? 'splitter: resuming the copy from its checkpoint' : 'splitter: copying');
  for (;;) {
    const page = await pageOriginal(d, ctx, record.namespace, record.partitionId, checkpoint.lastKey === undefined ? undefined : unhex(checkpoint.lastKey), COPY_PAGE_ROWS);
    const last = page.cells.at(-1);
    if (last !== undefined) {
      await ctx.op('writing split buckets', 'store', () => d.store.mutateMany(copyWrites(target, page.cells)));
      const next: CopyCheckpoint = { lastKey: hex(last.key), copiedRows: checkpoint.copiedRows + page.cells.length };
      await ctx.op('writing the copy checkpoint', 'store', () => d.repository.putCheckpoint(SPLIT_STAGE, record, next, micros(ctx.clock.nowMs())));
      checkpoint = next;
      if (checkpoint.copiedRows % (COPY_PAGE_ROWS * 50) === 0) log.info({ copied_rows: checkpoint.copiedRows }, 'splitter: progress');
    }
    if (page.exhausted) break;
    await ctx.heartbeat();
  }
  const now = micros(ctx.clock.nowMs());
  const split: WideRowRecord = { ...record, status: 'SPLIT', copiedAt: now, copiedRows: checkpoint.copiedRows, ...nextStamps(record, now) };
  await ctx.op('recording SPLIT', 'store', () => d.repository.put(split));
  log.info({ copied_rows: checkpoint.copiedRows }, 'splitter: SPLIT');
  await announceNextStage('split-results', split, ctx);
  return { kind: 'done' };
}
