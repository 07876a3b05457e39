import { describe, expect, it } from 'vitest';
import { createBatchHandler } from './createBatchHandler.ts';
import { inputFailureRouter } from '../failures/failureRouter.ts';
import { createPartitionPauser } from '../consumer/partitionPauser.ts';
import { PipelineError } from '../failures/PipelineError.ts';
import type { ConsumedRecord, RecordOutcome } from './pipelineTypes.ts';
import { createChunkSlots, type ChunkSlots } from './runChunksPipelined.ts';
import { createRuntimeMetrics } from '../runtimeMetrics.ts';
import { fakePayload, fakePublisher, message } from '../testing/fakeKafka.ts';
import { silentLogger } from '../testing/silentLogger.ts';
import { createTestClock } from '../testing/testClock.ts';

/** A message whose value names the cell its event writes back (its conflict key). */
const op = (offset: number, cell: string) => message(offset, Buffer.from(cell), { key: 'hot' });

/**
 * A batch handler over a `run` the test releases by hand, chunk by chunk, so
 * the order in which chunks start, finish and are committed can be observed.
 */
function harness(chunksInFlight: number, slots?: ChunkSlots) {
  const started: string[] = [];
  const gates = new Map<string, { release: () => void; fail: (e: unknown) => void }>();
  const pub = fakePublisher();
  const clock = createTestClock();
  const name = (chunk: readonly ConsumedRecord[]) => `${chunk[0]?.offset}-${chunk[chunk.length - 1]?.offset}`;
  const handler = createBatchHandler({
    run: (_source, chunk) =>
      new Promise<RecordOutcome[]>((resolve, reject) => {
        started.push(name(chunk));
        gates.set(name(chunk), { release: () => resolve(chunk.map(() => ({ kind: 'done' }))), fail: reject });
      }),
    route: inputFailureRouter({ repairTopic: 'p.in.repair', dlqTopic: 'p.in.dlq' }),
    publisher: pub.publisher,
    clock,
    logger: silentLogger,
    metrics: createRuntimeMetrics(),
    maxRecordsPerChunk: 2,
    pauser: createPartitionPauser(clock),
    pipelining: { chunksInFlight, conflictKeys: async (_source, chunk) => new Set(chunk.map((m) => String(m.value))), ...(slots ? { slots } : {}) },
  });
  const settle = () => new Promise((r) => setTimeout(r, 5));
  const gate = (chunk: string) => {
    const g = gates.get(chunk);
    if (g === undefined) throw new Error(`chunk ${chunk} has not started (started: ${started.join(' ')})`);
    return g;
  };
  return { handler, started, settle, release: (chunk: string) => gate(chunk).release(), fail: (chunk: string, e: unknown) => gate(chunk).fail(e) };
}

describe('overlapped chunks of one partition', () => {
  it('runs chunks of distinct cells at once, and commits them in offset order whatever order they finish in', async () => {
    const h = harness(3);
    const { payload, log } = fakePayload('p.in', 0, [op(0, 'a'), op(1, 'b'), op(2, 'c'), op(3, 'd'), op(4, 'e'), op(5, 'f')]);
    const done = h.handler(payload);
    await h.settle();
    expect(h.started).toEqual(['0-1', '2-3', '4-5']);
    h.release('4-5');
    h.release('2-3');
    await h.settle();
    expect(log.committed).toEqual([]); // 0-1 still runs: nothing after it may be committed
    h.release('0-1');
    await done;
    expect(log.committed).toEqual(['p.in:0@2', 'p.in:0@4', 'p.in:0@6']);
    expect(log.resolved).toEqual(['1', '3', '5']);
  });

  it('a chunk that shares a cell with a running chunk starts only after that chunk ran; others pass it', async () => {
    const h = harness(3);
    const { payload, log } = fakePayload('p.in', 0, [op(0, 'a'), op(1, 'b'), op(2, 'b'), op(3, 'c'), op(4, 'd'), op(5, 'e')]);
    const done = h.handler(payload);
    await h.settle();
    expect(h.started).toEqual(['0-1', '4-5']); // 2-3 writes b, which 0-1 holds
    h.release('0-1');
    await h.settle();
    expect(h.started).toEqual(['0-1', '4-5', '2-3']);
    h.release('2-3');
    h.release('4-5');
    await done;
    expect(log.committed).toEqual(['p.in:0@2', 'p.in:0@4', 'p.in:0@6']);
  });

  it('at most chunksInFlight run at once', async () => {
    const h = harness(2);
    const { payload } = fakePayload('p.in', 0, [op(0, 'a'), op(1, 'b'), op(2, 'c'), op(3, 'd'), op(4, 'e'), op(5, 'f')]);
    const done = h.handler(payload);
    await h.settle();
    expect(h.started).toEqual(['0-1', '2-3']);
    h.release('2-3');
    await h.settle();
    expect(h.started).toEqual(['0-1', '2-3']); // the oldest is settled first: its commit gates the window
    h.release('0-1');
    await h.settle();
    expect(h.started).toEqual(['0-1', '2-3', '4-5']);
    h.release('4-5');
    await done;
  });

  it('a failed chunk commits nothing from itself on; what ran before it stays committed; the error reaches kafkajs', async () => {
    const h = harness(3);
    const { payload, log } = fakePayload('p.in', 0, [op(0, 'a'), op(1, 'b'), op(2, 'c'), op(3, 'd'), op(4, 'e'), op(5, 'f')]);
    const done = h.handler(payload);
    await h.settle();
    h.release('0-1');
    h.release('4-5');
    h.fail('2-3', new PipelineError('BATCH_RETRY', 'registry down'));
    await expect(done).rejects.toThrow(/registry down/);
    expect(log.committed).toEqual(['p.in:0@2']);
  });

  it('chunk slots shared by partitions: each partition always runs one chunk, extra ones only while a slot is free', async () => {
    const slots = createChunkSlots(3);
    const a = harness(4, slots);
    const b = harness(4, slots);
    const pa = fakePayload('p.in', 0, [op(0, 'a'), op(1, 'b'), op(2, 'c'), op(3, 'd'), op(4, 'e'), op(5, 'f')]);
    const doneA = a.handler(pa.payload);
    await a.settle();
    expect(a.started).toEqual(['0-1', '2-3', '4-5']); // a lone partition takes the slack
    const pb = fakePayload('p.in', 1, [op(0, 'x'), op(1, 'y'), op(2, 'z'), op(3, 'w')]);
    const doneB = b.handler(pb.payload);
    await b.settle();
    expect(b.started).toEqual(['0-1']); // its first chunk runs past the limit; no more while a holds the slots
    a.release('0-1');
    a.release('2-3');
    a.release('4-5');
    await doneA;
    await b.settle();
    b.release('0-1');
    await b.settle();
    expect(b.started).toEqual(['0-1', '2-3']);
    b.release('2-3');
    await doneB;
    expect(pb.log.committed).toEqual(['p.in:1@2', 'p.in:1@4']);
  });

  it('with one chunk in flight it is the one-at-a-time path', async () => {
    const h = harness(1);
    const { payload, log } = fakePayload('p.in', 0, [op(0, 'a'), op(1, 'b'), op(2, 'c')]);
    const done = h.handler(payload);
    await h.settle();
    expect(h.started).toEqual(['0-1']);
    h.release('0-1');
    await h.settle();
    h.release('2-2');
    await done;
    expect(log.committed).toEqual(['p.in:0@2', 'p.in:0@3']);
  });
});
