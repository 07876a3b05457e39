import type { KafkaMessage } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../sinks/memory/index.ts';
import { StoreError, type TwoLevelMapStore } from '../../sinks/store/index.ts';
import { DecodeError } from '../serde/index.ts';
import type { CascadeLogic } from './cascadeTypes.ts';
import { createBatchHandler } from './createBatchHandler.ts';
import { runCascades, type CascadeDeps } from './createCascadeRunner.ts';
import { inputFailureRouter } from './failureRouter.ts';
import { HEADERS, headerString } from './headers.ts';
import { createPartitionPauser } from './partitionPauser.ts';
import { PipelineError } from './PipelineError.ts';
import { createRuntimeMetrics } from './runtimeMetrics.ts';
import { fakePayload, fakePublisher, message } from './testing/fakeKafka.ts';
import { silentLogger } from './testing/silentLogger.ts';
import { createTestClock } from './testing/testClock.ts';

/** A cascade of our own: `remove v` waits for c_gate[v], then emits one event per cell of c_links[v]; `explode v` throws in emitsForPage. */
interface Ev {
  readonly op: 'remove' | 'other' | 'explode';
  readonly v: string;
}
const utf8 = (s: string) => new TextEncoder().encode(s);
const logic: CascadeLogic<Ev> = {
  name: 'test-cascade',
  plan: (e) => (e.op === 'other' ? undefined : { gate: { namespace: 'c_gate', id: e.v, key: new Uint8Array(0) }, sources: [{ namespace: 'c_links', id: e.v }] }),
  gate: (_e, cell, ctx) => (cell === undefined ? { kind: 'wait', untilMs: Number(ctx.wallClockMicros / 1000n) + 1_000 } : { kind: 'go' }),
  emitsForPage: (e, _gate, source, cells) => {
    if (e.op === 'explode') throw new Error('boom');
    return cells.map((c) => ({ topic: 'edge-mutations' as const, key: new TextDecoder().decode(c.key), value: `${source.id}->${new TextDecoder().decode(c.key)}` }));
  },
};

function setup(storeOverride?: (s: TwoLevelMapStore) => TwoLevelMapStore) {
  const memory = createMemoryStore({ namespaces: [{ name: 'c_gate', chunking: false }, { name: 'c_links', chunking: false }] });
  const clock = createTestClock();
  const pub = fakePublisher();
  const metrics = createRuntimeMetrics();
  const deps: CascadeDeps<Ev> = {
    store: storeOverride ? storeOverride(memory) : memory,
    logic,
    decode: async (b) => {
      try {
        return JSON.parse(b.toString()) as Ev;
      } catch (e) {
        throw new DecodeError('BAD_PAYLOAD', 'not json', { cause: e });
      }
    },
    clock,
    logger: silentLogger,
    metrics,
    publisher: pub.publisher,
    pageSize: 2,
    encodeEmit: async (emit) => ({ topic: `p.${emit.topic}`, key: emit.key, value: Buffer.from(String(emit.value)) }),
    retry: { budgetMs: 500, initialBackoffMs: 100, maxBackoffMs: 200 },
  };
  const handler = createBatchHandler({
    run: (source, messages, heartbeat) => runCascades(deps, source, messages, heartbeat),
    route: inputFailureRouter({ repairTopic: 'p.in.repair', dlqTopic: 'p.in.dlq' }),
    publisher: pub.publisher,
    clock,
    logger: silentLogger,
    metrics,
    maxRecordsPerChunk: 100,
    pauser: createPartitionPauser(clock),
  });
  const setGate = (v: string) => memory.mutateMany([{ namespace: 'c_gate', id: v, writeTime: 1n, deletions: [], additions: [{ key: new Uint8Array(0), value: Uint8Array.of(1) }] }]);
  const links = (v: string, n: number) =>
    memory.mutateMany([{ namespace: 'c_links', id: v, writeTime: 1n, deletions: [], additions: Array.from({ length: n }, (_, i) => ({ key: utf8(`p${i}`), value: Uint8Array.of(1) })) }]);
  return { deps, handler, clock, ...pub, setGate, links };
}

const ev = (offset: number, e: Ev): KafkaMessage => message(offset, Buffer.from(JSON.stringify(e)), { key: e.v });

describe('runCascades (the cascade runner’s chunk)', () => {
  it('pages every source, publishes each page’s events and commits after the last page', async () => {
    const s = setup();
    await s.setGate('v');
    await s.links('v', 5);
    const { payload, log } = fakePayload('p.in', 0, [ev(0, { op: 'other', v: 'x' }), ev(1, { op: 'remove', v: 'v' }), message(2, Buffer.from('garbage'))]);
    await s.handler(payload);
    expect(s.published.map((r) => [r.key, r.value?.toString()])).toEqual(['p0', 'p1', 'p2', 'p3', 'p4'].map((p) => [p, `v->${p}`]));
    expect(log.heartbeats).toBeGreaterThanOrEqual(3); // one per page (pages of 2)
    expect(log.committed).toEqual(['p.in:0@3']); // undecodable records are left to the processor runtime's DLQ
  });

  it('commits the records before a closed gate, pauses, and takes the rest again once the gate opens', async () => {
    const s = setup();
    await s.links('v', 1);
    const messages = [ev(0, { op: 'other', v: 'x' }), ev(1, { op: 'remove', v: 'v' }), ev(2, { op: 'other', v: 'y' })];
    const first = fakePayload('p.in', 0, messages);
    await s.handler(first.payload);
    expect(first.log.committed).toEqual(['p.in:0@1']);
    expect(first.log.paused).toBe(1);
    expect(s.published).toEqual([]);

    await s.setGate('v');
    const again = fakePayload('p.in', 0, messages.slice(1));
    await s.handler(again.payload);
    expect(s.published.map((r) => r.value?.toString())).toEqual(['v->p0']);
    expect(again.log.committed).toEqual(['p.in:0@3']);
  });

  it('dead-letters a cascade whose logic throws, and moves on', async () => {
    const s = setup();
    await s.setGate('v');
    await s.links('v', 1);
    const { payload, log } = fakePayload('p.in', 0, [ev(0, { op: 'explode', v: 'v' })]);
    await s.handler(payload);
    expect(s.published.map((r) => [r.topic, headerString(r.headers, HEADERS.dlqReason)])).toEqual([['p.in.dlq', 'cascade_failed']]);
    expect(log.committed).toEqual(['p.in:0@1']);
  });

  it('re-delivers the chunk when a page cannot be read within the retry budget (re-running a cascade is idempotent)', async () => {
    const s = setup((inner) => ({
      ...inner,
      mutateMany: (ms) => inner.mutateMany(ms),
      namespace: (name) => {
        const ns = inner.namespace(name);
        return name === 'c_links' ? { ...ns, slice: () => Promise.reject(new StoreError('unavailable', 'down')) } : ns;
      },
    }));
    await s.setGate('v');
    const { payload, log } = fakePayload('p.in', 0, [ev(0, { op: 'remove', v: 'v' })]);
    const thrown = await s.handler(payload).catch((e: unknown) => e);
    expect(PipelineError.is(thrown) && thrown.code).toBe('BATCH_RETRY');
    expect(log.committed).toEqual([]);
  });
});
