import { handOffAndCommit, noteBatchFailure } from './chunkHandOff.ts';
import type { BatchHandlerOptions, BatchPayload } from './createBatchHandler.ts';
import type { ChunkSource, ConsumedRecord, RecordOutcome } from './pipelineTypes.ts';

/**
 * How the chunks of one partition may overlap. A hot partition (one source
 * with millions of links) is otherwise applied one chunk at a time, each
 * waiting out its reads and write waves: its throughput is one chunk per
 * round-trip chain whatever the store could take.
 */
export interface ChunkPipelining {
  /** Chunks of one partition running at once (1 = one at a time). */
  readonly chunksInFlight: number;
  /**
   * The keys a chunk's events must not share with an earlier chunk still
   * running (the fan-out: the link cells its events read and write back,
   * `exclusive` reads). A chunk that shares one runs after that chunk.
   */
  readonly conflictKeys: (source: ChunkSource, messages: readonly ConsumedRecord[]) => Promise<ReadonlySet<string>>;
  /**
   * Chunk slots shared by every partition of the runner: a partition's first
   * chunk always runs, each further one only while a slot is free. So the
   * total in flight stays what `partitionsConsumedConcurrently` gave before
   * (a store already saturated by many partitions gets no deeper queue, where
   * writes would outlive their retry budget), and a lone hot partition gets the slack.
   */
  readonly slots?: ChunkSlots;
}

/** A count of chunks in flight across partitions, with a limit on the optional ones. */
export interface ChunkSlots {
  /** Takes a slot for a partition's first chunk, even past the limit. */
  take(): void;
  /** Takes a slot if one is free. */
  tryTake(): boolean;
  release(): void;
}

export function createChunkSlots(limit: number): ChunkSlots {
  let used = 0;
  return {
    take: () => void used++,
    tryTake: () => (used < limit ? (used++, true) : false),
    release: () => void used--,
  };
}

interface Running {
  readonly chunk: readonly ConsumedRecord[];
  readonly keys: ReadonlySet<string>;
  readonly ran: Promise<RecordOutcome[]>;
}

/**
 * Runs a batch's chunks overlapped: up to `chunksInFlight` at once, each only
 * after every earlier chunk it conflicts with has run (so one edge's ops still
 * apply in offset order, and within a chunk the rounds order them), while
 * hand-offs and commits stay in offset order — a chunk's offset is committed
 * only after it and every chunk before it were handed off. A chunk that fails
 * fails those after it that waited for it; the batch then stops launching,
 * lets what runs finish uncommitted, and throws as the one-at-a-time path
 * does (kafkajs re-delivers from the last commit; every op is idempotent).
 * No record may be deferred here (runners with `dueAtMs` run one at a time).
 */
export async function runChunksPipelined(opts: BatchHandlerOptions, pipelining: ChunkPipelining, payload: BatchPayload, source: ChunkSource): Promise<void> {
  const messages = payload.batch.messages;
  const heartbeat = () => payload.heartbeat();
  const running: Running[] = [];
  const slots = pipelining.slots;
  const settleOldest = async (): Promise<void> => {
    const { chunk, ran } = running.shift() as Running;
    let outcomes: RecordOutcome[];
    try {
      outcomes = await ran;
    } catch (e) {
      throw noteBatchFailure(opts, source, chunk, e);
    } finally {
      slots?.release();
    }
    if (outcomes.some((o) => o.kind === 'defer')) throw new Error(`runtime: a pipelined chunk of ${source.topic}:${source.partition} deferred a record`);
    await handOffAndCommit(opts, payload, source, chunk, outcomes);
  };
  try {
    for (let next = 0; next < messages.length && payload.isRunning() && !payload.isStale(); ) {
      const chunk = messages.slice(next, next + opts.maxRecordsPerChunk);
      next += chunk.length;
      const keys = await pipelining.conflictKeys(source, chunk);
      while (running.length >= pipelining.chunksInFlight || (running.length > 0 && slots !== undefined && !slots.tryTake())) await settleOldest();
      if (running.length === 0) slots?.take();
      const before = running.filter((r) => shares(r.keys, keys)).map((r) => r.ran);
      const ran = Promise.all(before).then(() => opts.run(source, chunk, heartbeat));
      ran.catch(() => {}); // observed in order by settleOldest
      running.push({ chunk, keys, ran });
    }
    while (running.length > 0) await settleOldest();
  } catch (e) {
    await Promise.allSettled(running.map((r) => r.ran));
    for (let i = 0; i < running.length; i++) slots?.release();
    throw e;
  }
}

function shares(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const k of small) if (large.has(k)) return true;
  return false;
}
