import fs from 'node:fs';
import type { KafkaPort } from '../../streams/kafka/index.ts';
import pino from 'pino';
import { splitMirrorBarrierMs, type EdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import type { WideRowRecord, WideRowStatus } from '../../sinks/namespaces/index.ts';
import type { TwoLevelMapStore } from '../../sinks/store/index.ts';
import { createWideRowRepository } from '../../sinks/wide/index.ts';
import { PLAN_STAGE, SPLIT_STAGE } from '../../streams/runtime/split/index.ts';
import type { AvroSerde } from '../../streams/serde/index.ts';
import { createEdgePipeline } from '../../streams/topology/createEdgePipeline.ts';
import type { createStatusLine } from '../ingest/progressLine.ts';
import { fmt, round } from '../ingest/stats.ts';
import type { Detection } from './widePublisher.ts';

export interface PartitionSplit {
  readonly namespace: string;
  readonly partitionId: string;
  readonly outcome: 'COMPLETED' | 'FAILED' | 'TIMEOUT';
  /** The final wide_rows record (undefined if none was ever written). */
  readonly record: WideRowRecord | undefined;
  /** Epoch ms: detection (the event's detected_at), chain start, and when polling first saw each status. */
  readonly detectedAtMs: number;
  readonly chainStartedAtMs: number;
  readonly firstSeenMs: Partial<Record<WideRowStatus, number>>;
  /** When the planner started scanning: its "planner: scanning" log line, else the PLANNING record's updatedAt if polling saw it. */
  readonly planningAtMs: number | undefined;
  /** Seconds between the steps, from the record's own timestamps (µs) where it has them. */
  readonly seconds: {
    readonly detectionToCompleted: number | undefined;
    /** The event waited in the topic while the bench finished its "before" measurements. */
    readonly detectionToChainStart: number;
    readonly chainStartToCompleted: number | undefined;
    /** Planner start ("planner: scanning") → PLANNED. */
    readonly plan: number | undefined;
    /** PLANNED → SPLITTING: the mirror barrier (splitMirrorBarrierMs), plus any wait behind another task on the same split-plans partition. */
    readonly plannedToCopy: number | undefined;
    readonly copy: number | undefined;
    /** SPLIT → the verifier's walk started (its frontier): a wait behind another task on the same split-results partition. */
    readonly copiedToVerify: number | undefined;
    /** The verifier's walk (frontier → COMPLETED/FAILED). */
    readonly verify: number | undefined;
  };
}

export interface SplitPhaseResult {
  readonly partitions: readonly PartitionSplit[];
  readonly seconds: number;
  readonly chainLog: { readonly file: string; readonly warnings: number; readonly errors: number; readonly tail: readonly string[] };
}

const POLL_MS = 250;

/**
 * Runs the plan → split → verify chain in this process (createEdgePipeline
 * with stages plan, split, verify: three consumer groups on the chain
 * topics) until every detected partition's wide_rows record is COMPLETED or
 * FAILED, polling the records every 250 ms; then stops the runners. The
 * chain's pino log goes to `logFile`.
 */
export async function runSplitPhase(o: {
  kafka: KafkaPort;
  serde: AvroSerde;
  store: TwoLevelMapStore;
  config: EdgestreamConfig;
  detections: readonly Detection[];
  logFile: string;
  timeoutMs: number;
  status: ReturnType<typeof createStatusLine>;
  say: (line: string) => void;
}): Promise<SplitPhaseResult> {
  const log = createChainLog(o.logFile, o.say);
  const pipeline = createEdgePipeline({ kafka: o.kafka, serde: o.serde, store: o.store, config: o.config, logger: log.logger, stages: ['plan', 'split', 'verify'] });
  const repository = createWideRowRepository(o.store);
  const targets = uniqueTargets(o.detections);
  const t0 = performance.now();
  const chainStartedAtMs = Date.now();
  let crashed: unknown;
  pipeline.done.catch((e: unknown) => (crashed = e));
  await pipeline.start();
  o.say(`split chain started in-process (${Object.values(pipeline.groups).join(', ')}); mirror barrier ${splitMirrorBarrierMs(o.config)} ms`);

  const state = targets.map((t) => ({ ...t, record: undefined as WideRowRecord | undefined, firstSeenMs: {} as Partial<Record<WideRowStatus, number>>, planningAtMs: undefined as number | undefined, progress: '' }));
  const finished = (s: (typeof state)[number]) => s.record?.status === 'COMPLETED' || s.record?.status === 'FAILED';
  try {
    while (!state.every(finished)) {
      if (crashed !== undefined) throw new Error(`the split chain crashed: ${crashed instanceof Error ? crashed.message : String(crashed)}`);
      if (performance.now() - t0 > o.timeoutMs) break;
      await Promise.all(
        state.filter((s) => !finished(s)).map(async (s) => {
          const record = await repository.get(s.namespace, s.partitionId);
          if (record === undefined) return;
          const now = Date.now();
          if (s.firstSeenMs[record.status] === undefined) {
            s.firstSeenMs[record.status] = now;
            o.status.done();
            o.say(`[split] ${s.namespace}[${s.partitionId}] ${record.status} (generation ${record.generation}${record.status === 'PLANNED' ? `, ${fmt(record.rows)} rows, ${fmt(record.bytes)} bytes → ${record.buckets} ${record.strategy} buckets` : ''}${record.status === 'COMPLETED' || record.status === 'FAILED' ? `, ${fmt(record.verification?.rowsCompared ?? 0)} rows compared, ${record.verification?.mismatchedKeys ?? '?'} mismatched` : ''}) after ${((now - chainStartedAtMs) / 1000).toFixed(1)} s`);
          }
          if (record.status === 'PLANNING') s.planningAtMs ??= record.updatedAt / 1_000;
          s.record = record;
          s.progress = await progressOf(repository, record);
        }),
      );
      o.status.update(`[split] ${((performance.now() - t0) / 1000).toFixed(0)} s: ${state.map((s) => `${s.namespace}[${s.partitionId}] ${s.record?.status ?? 'waiting'}${s.progress}`).join('; ')}`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  } finally {
    o.status.done();
    await pipeline.stop();
    await log.close();
  }
  const seconds = (performance.now() - t0) / 1000;
  return {
    partitions: state.map((s) => toResult({ ...s, planningAtMs: log.planStarts.get(`${s.namespace}\u0000${s.partitionId}`) ?? s.planningAtMs }, chainStartedAtMs)),
    seconds: round(seconds, 1),
    chainLog: { file: o.logFile, warnings: log.counts.warn, errors: log.counts.error, tail: log.tail },
  };
}

function uniqueTargets(detections: readonly Detection[]): { namespace: string; partitionId: string; detectedAtMs: number }[] {
  const byKey = new Map<string, { namespace: string; partitionId: string; detectedAtMs: number }>();
  for (const d of detections) {
    const key = `${d.namespace}\u0000${d.partitionId}`;
    if (!byKey.has(key)) byKey.set(key, { namespace: d.namespace, partitionId: d.partitionId, detectedAtMs: d.detectedAtMicros / 1_000 });
  }
  return [...byKey.values()];
}

async function progressOf(repository: ReturnType<typeof createWideRowRepository>, record: WideRowRecord): Promise<string> {
  if (record.status === 'PLANNING') {
    const cp = await repository.getCheckpoint<{ checksum?: { rows?: number } }>(PLAN_STAGE, record);
    return cp?.checksum?.rows ? ` ${fmt(cp.checksum.rows)} rows scanned` : '';
  }
  if (record.status === 'SPLITTING') {
    const cp = await repository.getCheckpoint<{ copiedRows?: number }>(SPLIT_STAGE, record);
    return cp?.copiedRows ? ` ${fmt(cp.copiedRows)}/${fmt(record.rows)} copied` : '';
  }
  return '';
}

function toResult(
  s: { namespace: string; partitionId: string; detectedAtMs: number; record: WideRowRecord | undefined; firstSeenMs: Partial<Record<WideRowStatus, number>>; planningAtMs: number | undefined },
  chainStartedAtMs: number,
): PartitionSplit {
  const r = s.record;
  const sec = (fromMicros: number | undefined, toMicros: number | undefined) => (fromMicros === undefined || toMicros === undefined ? undefined : round((toMicros - fromMicros) / 1e6, 1));
  const completedMicros = r?.status === 'COMPLETED' ? r.verifiedAt : undefined;
  const outcome = r?.status === 'COMPLETED' ? 'COMPLETED' : r?.status === 'FAILED' ? 'FAILED' : 'TIMEOUT';
  return {
    namespace: s.namespace,
    partitionId: s.partitionId,
    outcome,
    record: r,
    detectedAtMs: s.detectedAtMs,
    chainStartedAtMs,
    firstSeenMs: s.firstSeenMs,
    planningAtMs: s.planningAtMs,
    seconds: {
      detectionToCompleted: sec(s.detectedAtMs * 1_000, completedMicros),
      detectionToChainStart: round((chainStartedAtMs - s.detectedAtMs) / 1_000, 1),
      chainStartToCompleted: sec(chainStartedAtMs * 1_000, completedMicros),
      plan: sec(s.planningAtMs === undefined ? undefined : s.planningAtMs * 1_000, r?.plannedAt),
      plannedToCopy: sec(r?.plannedAt, r?.copyStartedAt),
      copy: sec(r?.copyStartedAt, r?.copiedAt),
      copiedToVerify: sec(r?.copiedAt, r?.verification?.frontier),
      verify: sec(r?.verification?.frontier, r?.verifiedAt),
    },
  };
}

/**
 * A pino logger writing JSON lines to `file`, counting warnings and errors and
 * keeping the last lines (errors are echoed), and noting when the planner
 * started scanning each partition.
 */
function createChainLog(file: string, say: (line: string) => void) {
  const out = fs.createWriteStream(file, { flags: 'a' });
  const counts = { warn: 0, error: 0 };
  const tail: string[] = [];
  const planStarts = new Map<string, number>();
  const logger = pino(
    { level: 'info', base: { app: 'bench-wide-chain' } },
    {
      write(line: string) {
        out.write(line);
        tail.push(line.trimEnd());
        if (tail.length > 30) tail.shift();
        let entry: { level?: number; time?: number; msg?: string; namespace?: string; partition_id?: string } = {};
        try {
          entry = JSON.parse(line) as typeof entry;
        } catch {
          // not JSON: counted as info
        }
        if (entry.msg === 'planner: scanning' && entry.time !== undefined) planStarts.set(`${entry.namespace}\u0000${entry.partition_id}`, entry.time);
        const level = entry.level ?? 30;
        if (level >= 50) {
          counts.error++;
          say(`[split chain error] ${line.trimEnd().slice(0, 600)}`);
        } else if (level >= 40) counts.warn++;
      },
    },
  );
  return { logger, counts, tail, planStarts, close: () => new Promise<void>((resolve) => out.end(resolve)) };
}
