import { describe, expect, it } from 'vitest';
import { createFanOutProcessor, writeWaves } from '../../../processors/index.ts';
import { defaultEdgestreamConfig, splitMirrorBarrierMs, type EdgeMutation, type WidePartitionDetected } from '../../../schemas/index.ts';
import { EdgeOp } from '../../../schemas/generated/EdgeMutation.ts';
import { createMemoryStore } from '../../../sinks/memory/index.ts';
import { edgestreamNamespaces, encodeVertexKey, splitBucketId, splittableNamespaces, type WideRowRecord } from '../../../sinks/namespaces/index.ts';
import type { Cell, TwoLevelMapStore } from '../../../sinks/store/index.ts';
import { createSplitDirectory, createSplitLayoutReader, createSplitMirroringStore, createWideRowRepository } from '../../../sinks/wide/index.ts';
import type { Emit } from '../../../processors/index.ts';
import { createTestClock } from '../testing/testClock.ts';
import { silentLogger } from '../testing/silentLogger.ts';
import { copyPartition } from './copyPartition.ts';
import type { StageContext } from './createSplitStageRunner.ts';
import { planPartition } from './planPartition.ts';
import type { SplitStageDeps } from './splitStageDeps.ts';
import { verifySplit } from './verifySplit.ts';

// The three stages on the in-memory store with a hand-driven clock: the chain's logic and
// checkpoints, not Kafka (test/integration/wideSplit.test.ts runs them through Kafka and Cassandra).

const config = defaultEdgestreamConfig({ wide: { directoryRefreshMs: 100, verifySettleMs: 0, targetBucketBytes: 16 << 10, maxBuckets: 8 } });
const fanOut = createFanOutProcessor(config);
const T0 = 1_600_000_000_000_000n;

function setup() {
  const store = createMemoryStore({ namespaces: edgestreamNamespaces(config) });
  const clock = createTestClock();
  const deps: SplitStageDeps = { store, repository: createWideRowRepository(store), layoutReader: createSplitLayoutReader(store), config, strategies: splittableNamespaces(config.edgeTypes) };
  const emits: Emit[] = [];
  const ctx = (failAfterOps = Infinity): StageContext => {
    let ops = 0;
    return {
      clock,
      logger: silentLogger,
      heartbeat: async () => {},
      emit: async (e) => void emits.push(e),
      op: async (_what, _boundary, fn) => {
        if (++ops > failAfterOps) throw new Error('crash');
        return fn();
      },
    };
  };
  return { store, clock, deps, emits, ctx };
}

/** Applies link events through the real fan-out logic (link reads answered from `store`). */
async function applyEvents(store: TwoLevelMapStore, events: readonly EdgeMutation[]) {
  for (const e of events) {
    const requests = fanOut.reads(e);
    const cells = new Map<string, Cell | undefined>();
    for (const r of requests) cells.set(`${r.namespace}|${r.id}|${Buffer.from(r.key).toString('hex')}`, await store.namespace(r.namespace).get(r.id, r.key));
    const out = fanOut.process(e, { get: (r) => cells.get(`${r.namespace}|${r.id}|${Buffer.from(r.key).toString('hex')}`) }, { wallClockMicros: T0 * 2n });
    for (const wave of writeWaves(out)) await store.mutateMany(wave);
  }
}

const follow = (i: number, op: EdgeOp = EdgeOp.ADD_EDGE, at = BigInt(i)): EdgeMutation => ({
  mutation_id: `m-${op}-${i}-${at}`,
  op,
  edge_type: 'follows',
  src: `f${i}`,
  dst: 'celeb',
  event_time: T0 + at * 1_000n,
  properties: {},
  property_keys: [],
});

const detected = (namespace: string): WidePartitionDetected => ({ namespace, partition_id: 'celeb', bytes_read: 1n, rows_read: 1n, rows_returned: 1n, detected_at: T0, immutable: false, window_ms: 1n });

async function allCells(page: (after: Uint8Array | undefined) => Promise<{ cells: readonly Cell[]; exhausted: boolean }>): Promise<Cell[]> {
  const out: Cell[] = [];
  let after: Uint8Array | undefined;
  for (;;) {
    const p = await page(after);
    out.push(...p.cells);
    if (p.exhausted || p.cells.length === 0) return out;
    after = p.cells.at(-1)?.key;
  }
}

const cellText = (c: Cell) => `${Buffer.from(c.key).toString('hex')}=${Buffer.from(c.value).toString('hex')}@${c.writeTime}`;

async function runChain(s: ReturnType<typeof setup>, namespace: string): Promise<WideRowRecord> {
  await planPartition(detected(namespace), s.deps, s.ctx());
  const planned = await s.deps.repository.get(namespace, 'celeb');
  const task = { namespace, partition_id: 'celeb', generation: planned!.generation, requested_at: 0n };
  expect(await copyPartition(task, s.deps, s.ctx())).toMatchObject({ kind: 'defer' });
  await s.clock.advance(splitMirrorBarrierMs(config) + 1);
  expect(await copyPartition(task, s.deps, s.ctx())).toEqual({ kind: 'done' });
  await verifySplit(task, s.deps, s.ctx());
  return (await s.deps.repository.get(namespace, 'celeb'))!;
}

// Walks of a few thousand rows: fast alone (~1 s), but `npm test` runs them next to the integration suite on 2 cores.
describe('split stages on the memory store', { timeout: 60_000 }, () => {
  it.each(['follows_in', 'follows_in_recent'])('plans, copies and verifies %s; pages through the split equal the original', async (namespace) => {
    const s = setup();
    await applyEvents(s.store, Array.from({ length: 3_000 }, (_, i) => follow(i)));
    await applyEvents(s.store, Array.from({ length: 300 }, (_, i) => follow(i * 7, EdgeOp.REMOVE_EDGE, 5_000n + BigInt(i))));
    const record = await runChain(s, namespace);
    expect(record.status).toBe('COMPLETED');
    expect(record.buckets).toBeGreaterThan(1);
    expect(record.buckets).toBeLessThanOrEqual(config.wide.maxBuckets);
    expect(record.verification).toMatchObject({ mismatchedKeys: 0, originalUnchangedSincePlan: true });
    expect(record.verification!.splitChecksum).toBe(record.checksum);
    expect(s.emits.map((e) => e.topic)).toEqual(['split-plans', 'split-results']);
    const original = await allCells(async (after) => {
      const p = await s.store.namespace(namespace).slice('celeb', { limit: 333, ...(after ? { start: Uint8Array.from([...after, 0]) } : {}) });
      return { cells: p.cells, exhausted: p.pageState === undefined };
    });
    const viaSplit = await allCells((after) => s.deps.layoutReader.page({ splitNamespace: record.splitNamespace, partitionId: 'celeb', generation: record.generation, layout: record.strategy === 'hash' ? { strategy: 'hash', buckets: record.buckets } : { strategy: 'range', boundaries: record.boundaries.map((h) => Buffer.from(h, 'hex')) } }, { limit: 333, ...(after ? { after } : {}) }));
    expect(viaSplit.map(cellText)).toEqual(original.map(cellText));
  });

  it('a write through the mirror after PLANNED reaches the split; a tampered bucket cell makes the verifier fail', async () => {
    const s = setup();
    await applyEvents(s.store, Array.from({ length: 2_000 }, (_, i) => follow(i)));
    await planPartition(detected('follows_in'), s.deps, s.ctx());
    const directory = createSplitDirectory({ repository: s.deps.repository, namespaces: ['follows_in'], refreshMs: 100, maxStaleMs: 60_000, falsePositiveRate: 0.01 });
    await directory.refresh();
    const mirrored = createSplitMirroringStore(s.store, { directory, namespaces: new Set(['follows_in']) });
    await applyEvents(mirrored, [follow(9_001, EdgeOp.ADD_EDGE, 9_001n), follow(3, EdgeOp.REMOVE_EDGE, 9_002n)]);
    const task = { namespace: 'follows_in', partition_id: 'celeb', generation: 1, requested_at: 0n };
    await s.clock.advance(splitMirrorBarrierMs(config) + 1);
    await copyPartition(task, s.deps, s.ctx());
    const record = (await s.deps.repository.get('follows_in', 'celeb'))!;
    const target = { splitNamespace: record.splitNamespace, partitionId: 'celeb', generation: 1, layout: { strategy: 'hash' as const, buckets: record.buckets } };
    const mirroredCell = await s.deps.layoutReader.get(target, encodeVertexKey('f9001'));
    expect(mirroredCell?.writeTime).toBe(T0 + 9_001_000n);
    // Tamper: a different value for f5 in its bucket, newer than the original but before the frontier.
    const key = encodeVertexKey('f5');
    const original = (await s.store.namespace('follows_in').get('celeb', key))!;
    const buckets = Array.from({ length: record.buckets }, (_, b) => splitBucketId('celeb', 1, b));
    for (const id of buckets) if (await s.store.namespace(record.splitNamespace).get(id, key)) await s.store.namespace(record.splitNamespace).put(id, key, Uint8Array.of(1, 2, 3), original.writeTime + 1n);
    await verifySplit(task, s.deps, s.ctx());
    const failed = (await s.deps.repository.get('follows_in', 'celeb'))!;
    expect(failed.status).toBe('FAILED');
    expect(failed.verification).toMatchObject({ mismatchedKeys: 1, sample: [Buffer.from(key).toString('hex')] });
    expect(failed.verification!.splitChecksum).not.toBe(failed.verification!.originalChecksum);
    // A re-run plans generation 2 from scratch.
    await planPartition(detected('follows_in'), s.deps, s.ctx());
    expect(await s.deps.repository.get('follows_in', 'celeb')).toMatchObject({ status: 'PLANNED', generation: 2, attempts: 2 });
  });

  it('a planner and a splitter that crash mid-walk resume from their checkpoints and reach the same result', async () => {
    const reference = setup();
    const crashing = setup();
    const events = Array.from({ length: 12_000 }, (_, i) => follow(i));
    await applyEvents(reference.store, events);
    await applyEvents(crashing.store, events);
    const ref = await runChain(reference, 'follows_in');

    await expect(planPartition(detected('follows_in'), crashing.deps, crashing.ctx(9))).rejects.toThrow('crash');
    expect(await crashing.deps.repository.get('follows_in', 'celeb')).toMatchObject({ status: 'PLANNING' });
    expect(await crashing.deps.repository.getCheckpoint<{ checksum: { rows: number } }>('plan', { namespace: 'follows_in', partitionId: 'celeb', generation: 1 })).toMatchObject({ checksum: { rows: 4_096 } });
    await planPartition(detected('follows_in'), crashing.deps, crashing.ctx());
    const planned = (await crashing.deps.repository.get('follows_in', 'celeb'))!;
    expect({ checksum: planned.checksum, rows: planned.rows, bytes: planned.bytes, buckets: planned.buckets }).toEqual({ checksum: ref.checksum, rows: ref.rows, bytes: ref.bytes, buckets: ref.buckets });

    const task = { namespace: 'follows_in', partition_id: 'celeb', generation: 1, requested_at: 0n };
    await crashing.clock.advance(splitMirrorBarrierMs(config) + 1);
    await expect(copyPartition(task, crashing.deps, crashing.ctx(8))).rejects.toThrow('crash');
    const checkpoint = await crashing.deps.repository.getCheckpoint<{ copiedRows: number }>('split', { namespace: 'follows_in', partitionId: 'celeb', generation: 1 });
    expect(checkpoint!.copiedRows).toBeGreaterThan(0);
    expect(checkpoint!.copiedRows).toBeLessThan(12_000);
    await copyPartition(task, crashing.deps, crashing.ctx());
    await verifySplit(task, crashing.deps, crashing.ctx());
    expect(await crashing.deps.repository.get('follows_in', 'celeb')).toMatchObject({ status: 'COMPLETED', copiedRows: 12_000 });
  });
});
