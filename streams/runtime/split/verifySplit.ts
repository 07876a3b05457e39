import { ChainChecksum, compareCells, nextStamps, verifierDecision } from '../../../processors/split/index.ts';
import type { SplitTask } from '../../../schemas/index.ts';
import { bucketCount, splitBucketId, splitTargetOf, type SplitTarget, type WideRowRecord, type WideRowVerification } from '../../../sinks/namespaces/index.ts';
import { compareBytes, keySuccessor, type Cell } from '../../../sinks/store/index.ts';
import type { StageContext, StageOutcome } from './createSplitStageRunner.ts';
import { pageOriginal } from './pageOriginal.ts';
import { hex, micros, type SplitStageDeps } from './splitStageDeps.ts';

const WALK_PAGE_ROWS = 1_000;
const SETTLE_POLL_MS = 200;
const SAMPLE_KEYS = 5;

/**
 * The verifier (docs/architecture.md §6). It walks the original and the split
 * (buckets merged into one ascending stream) side by side in canonical key
 * order and computes each side's chained checksum over the same key set at
 * the same frontier (the verification start): a key written after the
 * frontier on either side is a write that arrived meanwhile and is left out
 * of both. A key whose cells differ is re-read on both sides for up to
 * `wide.verifySettleMs` (a mirrored write may have reached one side first);
 * if it still differs it is a mismatch. COMPLETED only when there is no
 * mismatch and the two checksums are equal; FAILED otherwise, and readers
 * keep reading the original.
 */
export async function verifySplit(task: SplitTask, d: SplitStageDeps, ctx: StageContext): Promise<StageOutcome> {
  const log = ctx.logger.child({ namespace: task.namespace, partition_id: task.partition_id, generation: task.generation });
  const current = await ctx.op('reading wide_rows', 'store', () => d.repository.get(task.namespace, task.partition_id));
  const decision = verifierDecision(current, task);
  if (decision.kind === 'skip') {
    log.info({ reason: decision.reason }, 'verifier: nothing to do');
    return { kind: 'done' };
  }
  const record = decision.record;
  const verification = await compareLayouts(record, d, ctx);
  const ok = verification.mismatchedKeys === 0 && verification.originalChecksum === verification.splitChecksum;
  const now = micros(ctx.clock.nowMs());
  const done: WideRowRecord = {
    ...record,
    status: ok ? 'COMPLETED' : 'FAILED',
    verifiedAt: now,
    verification,
    ...(ok ? {} : { failure: `checksum mismatch: ${verification.mismatchedKeys} key(s) differ between the original and the split (e.g. ${verification.sample.join(', ')})` }),
    ...nextStamps(record, now),
  };
  await ctx.op(`recording ${done.status}`, 'store', () => d.repository.put(done));
  (ok ? log.info.bind(log) : log.error.bind(log))({ status: done.status, ...verification }, `verifier: ${done.status}`);
  return { kind: 'done' };
}

async function compareLayouts(record: WideRowRecord, d: SplitStageDeps, ctx: StageContext): Promise<WideRowVerification> {
  const frontierMicros = micros(ctx.clock.nowMs());
  const frontier = BigInt(frontierMicros);
  const target = splitTargetOf(record);
  /** One partition's cells, ascending, page by page after the last key seen. */
  const partitionCells = (namespace: string, id: string) =>
    pagedCells((after) =>
      ctx.op(`paging ${namespace}[${id}]`, 'store', async () => {
        const page = await d.store.namespace(namespace).slice(id, { limit: WALK_PAGE_ROWS, ...(after === undefined ? {} : { start: keySuccessor(after) }) });
        return { cells: page.cells, exhausted: page.pageState === undefined };
      }),
    );
  const originalSide = pagedCells((after) => pageOriginal(d, ctx, record.namespace, record.partitionId, after, WALK_PAGE_ROWS));
  // One cursor per bucket, merged here: each split row is read once (asking every bucket for a
  // whole page per merged page, as a serving read does, would read each row about n times).
  const splitSide = mergedCells(Array.from({ length: bucketCount(target.layout) }, (_, b) => partitionCells(target.splitNamespace, splitBucketId(record.partitionId, record.generation, b))));
  const sums = { original: new ChainChecksum(), split: new ChainChecksum() };
  const counts = { rowsCompared: 0, movedKeys: 0, settledKeys: 0, mismatchedKeys: 0 };
  const sample: string[] = [];
  let steps = 0;
  let o = await originalSide.next();
  let s = await splitSide.next();
  while (o !== undefined || s !== undefined) {
    const order = o === undefined ? 1 : s === undefined ? -1 : compareBytes(o.key, s.key);
    const key = (order <= 0 ? o : s)?.key as Uint8Array;
    let pair = { original: order <= 0 ? o : undefined, split: order >= 0 ? s : undefined };
    let verdict = compareCells(pair.original, pair.split, frontier);
    if (verdict === 'differs') {
      const settled = await settle(target, record, key, frontier, d, ctx);
      pair = settled.pair;
      verdict = settled.verdict;
      if (verdict !== 'differs') counts.settledKeys++;
    }
    if (verdict === 'moved') counts.movedKeys++;
    else {
      counts.rowsCompared++;
      if (pair.original) sums.original.add(pair.original);
      if (pair.split) sums.split.add(pair.split);
      if (verdict === 'differs') {
        counts.mismatchedKeys++;
        if (sample.length < SAMPLE_KEYS) sample.push(hex(key));
      }
    }
    if (order <= 0) o = await originalSide.next();
    if (order >= 0) s = await splitSide.next();
    if (++steps % 10_000 === 0) await ctx.heartbeat();
  }
  const originalChecksum = sums.original.digest();
  return {
    originalChecksum,
    splitChecksum: sums.split.digest(),
    ...counts,
    sample,
    frontier: frontierMicros,
    originalUnchangedSincePlan: originalChecksum === record.checksum,
  };
}

/** Re-reads a differing key on both sides until they agree (or move past the frontier) or `verifySettleMs` runs out. */
async function settle(target: SplitTarget, record: WideRowRecord, key: Uint8Array, frontier: bigint, d: SplitStageDeps, ctx: StageContext) {
  const deadline = ctx.clock.nowMs() + d.config.wide.verifySettleMs;
  for (;;) {
    const [original, split] = await Promise.all([
      ctx.op('re-reading the original', 'store', () => d.store.namespace(record.namespace).get(record.partitionId, key)),
      ctx.op('re-reading the split', 'store', () => d.layoutReader.get(target, key)),
    ]);
    const verdict = compareCells(original, split, frontier);
    if (verdict !== 'differs' || ctx.clock.nowMs() >= deadline) return { pair: { original, split }, verdict };
    await ctx.clock.sleep(SETTLE_POLL_MS);
    await ctx.heartbeat();
  }
}

interface CellStream {
  next(): Promise<Cell | undefined>;
}

/** Ascending streams (disjoint key sets: one per bucket) merged into one ascending stream. */
function mergedCells(streams: readonly CellStream[]): CellStream {
  let heads: (Cell | undefined)[] | undefined;
  return {
    async next() {
      heads ??= await Promise.all(streams.map((st) => st.next()));
      let min = -1;
      heads.forEach((h, i) => {
        if (h !== undefined && (min < 0 || compareBytes(h.key, (heads as (Cell | undefined)[])[min]!.key) < 0)) min = i;
      });
      if (min < 0) return undefined;
      const cell = heads[min];
      heads[min] = await (streams[min] as CellStream).next();
      return cell;
    },
  };
}

/** An ascending cell stream over pages fetched after the last key seen. */
function pagedCells(fetch: (after: Uint8Array | undefined) => Promise<{ cells: readonly Cell[]; exhausted: boolean }>): CellStream {
  let buffer: readonly Cell[] = [];
  let at = 0;
  let after: Uint8Array | undefined;
  let exhausted = false;
  return {
    async next(): Promise<Cell | undefined> {
      while (at >= buffer.length) {
        if (exhausted) return undefined;
        const page = await fetch(after);
        buffer = page.cells;
        at = 0;
        exhausted = page.exhausted || page.cells.length === 0;
        const last = page.cells.at(-1);
        if (last !== undefined) after = last.key;
      }
      return buffer[at++];
    },
  };
}
