import { CHECKSUM_BLOCK_ROWS, ChainChecksum, chooseBuckets, foldPlanPage, nextStamps, plannerDecision, planningRecord, START_PLAN, type PlanProgress } from '../../../processors/split/index.ts';
import type { WidePartitionDetected } from '../../../schemas/index.ts';
import type { WideRowRecord } from '../../../sinks/namespaces/index.ts';
import type { StageContext, StageOutcome } from './createSplitStageRunner.ts';
import { pageOriginal } from './pageOriginal.ts';
import { announceNextStage, micros, unhex, type SplitStageDeps } from './splitStageDeps.ts';

export const PLAN_STAGE = 'plan';
/** Checkpoint after this many pages (each CHECKSUM_BLOCK_ROWS rows): the sample list makes a checkpoint a few tens of KiB. */
const CHECKPOINT_EVERY_PAGES = 4;

/**
 * The planner (docs/architecture.md §6): on a wide-partition event, record
 * PLANNING, walk the whole partition in pages of CHECKSUM_BLOCK_ROWS rows
 * (checkpointing rows, bytes, checksum chain and key samples), choose the
 * bucket count and boundaries, record PLANNED and publish the split task.
 * Writers start mirroring the partition once they see PLANNED.
 */
export async function planPartition(event: WidePartitionDetected, d: SplitStageDeps, ctx: StageContext): Promise<StageOutcome> {
  const { namespace, partition_id: partitionId } = event;
  const log = ctx.logger.child({ namespace, partition_id: partitionId });
  const strategy = d.strategies.get(namespace);
  if (strategy === undefined) {
    log.warn('wide partition of a namespace that is never split; ignored');
    return { kind: 'done' };
  }
  const previous = await ctx.op('reading wide_rows', 'store', () => d.repository.get(namespace, partitionId));
  const decision = plannerDecision(previous);
  if (decision.kind === 'skip') {
    log.info({ reason: decision.reason }, 'planner: nothing to do');
    return { kind: 'done' };
  }
  if (decision.kind === 'announce') {
    await announceNextStage('split-plans', decision.record, ctx);
    return { kind: 'done' };
  }
  const detected = { bytesRead: Number(event.bytes_read), rowsRead: Number(event.rows_read), rowsReturned: Number(event.rows_returned), detectedAt: Number(event.detected_at) };
  let record: WideRowRecord;
  if (decision.resume) record = previous as WideRowRecord;
  else {
    record = planningRecord(previous, { namespace, partitionId, strategy, generation: decision.generation, attempts: decision.attempts, detected }, micros(ctx.clock.nowMs()));
    await ctx.op('recording PLANNING', 'store', () => d.repository.put(record));
  }
  let progress: PlanProgress = (decision.resume ? await ctx.op('reading the plan checkpoint', 'store', () => d.repository.getCheckpoint<PlanProgress>(PLAN_STAGE, record)) : undefined) ?? START_PLAN;
  log.info({ generation: record.generation, resumed_at_row: progress.checksum.rows }, decision.resume ? 'planner: resuming the scan from its checkpoint' : 'planner: scanning');
  const checksum = new ChainChecksum(progress.checksum);
  for (let pages = 1; ; pages++) {
    const page = await pageOriginal(d, ctx, namespace, partitionId, progress.lastKey === undefined ? undefined : unhex(progress.lastKey), CHECKSUM_BLOCK_ROWS);
    progress = foldPlanPage(progress, page.cells, checksum).progress;
    if (page.exhausted) break;
    if (pages % CHECKPOINT_EVERY_PAGES === 0 && checksum.state() !== undefined) {
      const at = progress;
      await ctx.op('writing the plan checkpoint', 'store', () => d.repository.putCheckpoint(PLAN_STAGE, record, at, micros(ctx.clock.nowMs())));
      log.info({ rows: checksum.count, bytes: at.bytes }, 'planner: progress');
    }
    await ctx.heartbeat();
  }
  const rows = checksum.count;
  const choice = chooseBuckets(strategy, rows, progress.bytes, progress, { targetBucketBytes: d.config.wide.targetBucketBytes, maxBuckets: d.config.wide.maxBuckets });
  const now = micros(ctx.clock.nowMs());
  const planned: WideRowRecord = {
    ...record,
    status: 'PLANNED',
    buckets: choice.buckets,
    boundaries: [...choice.boundaries],
    rows,
    bytes: progress.bytes,
    checksum: checksum.digest(),
    plannedAt: now,
    ...nextStamps(record, now),
  };
  await ctx.op('recording PLANNED', 'store', () => d.repository.put(planned));
  log.info({ generation: planned.generation, rows, bytes: planned.bytes, buckets: planned.buckets, strategy, checksum: planned.checksum }, 'planner: PLANNED');
  await announceNextStage('split-plans', planned, ctx);
  return { kind: 'done' };
}
