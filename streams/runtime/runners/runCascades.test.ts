import type { ConsumedRecord } from '../../kafka/index.ts';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../sinks/memory/index.ts';
import { StoreError, type TwoLevelMapStore } from '../../../sinks/store/index.ts';
import { DecodeError } from '../../serde/index.ts';
import type { CascadeLogic } from './cascadeTypes.ts';
import { createBatchHandler } from '../stages/createBatchHandler.ts';
import { runCascades, type CascadeDeps } from './createCascadeRunner.ts';
import { inputFailureRouter } from '../failures/failureRouter.ts';
import { HEADERS, headerString } from '../failures/headers.ts';
import { createPartitionPauser } from '../consumer/partitionPauser.ts';
import { PipelineError } from '../failures/PipelineError.ts';
import { createRuntimeMetrics } from '../runtimeMetrics.ts';
import { fakePayload, fakePublisher, message } from '../testing/fakeKafka.ts';
import { silentLogger } from '../testing/silentLogger.ts';
import { createTestClock } from '../testing/testClock.ts';

/** A cascade of our own: `remove v` waits for c_gate[v] (absent until written), then emits one event per cell of c_links[v]; `explode v` throws in emitsForPage. */
interface Ev {
  readonly op: 'remove' | 'other' | 'explode';
  readonly v: string;
}
const utf8 = (s: string) => new TextEncoder().encode(s);
const logic: CascadeLogic<Ev> = {
  name: 'test-cascade',
  plan: (e) => (e.op === 'other' ? undefined : { gate: { namespace: 'c_gate', id: e.v, key: new Uint8Array(0) }, sources: [{ namespace: 'c_links', id: e.v }] }),
  gate: (e, cell, ctx) => (cell === undefined ? { kind: 'absent', recheckAtMs: Number(ctx.wallClockMicros / 1000n) + 1_000, what: `c_gate[${e.v}]` } : { kind: 'go' }),
  emitsForPage: (e, _gate, source, cells) => {
    if (e.op === 'explode') throw new Error('boom');
    return cells.map((c) => ({ topic: 'edge-mutations' as const, key: new TextDecoder().decode(c.key), value: `${source.id}->${new TextDecoder().decode(c.key)}` }));
  },
};

function setup(storeOverride?: (s: TwoLevelMapStore) => TwoLevelMapStore, { autoAdvance = true } = {}) {
  const memory = createMemoryStore({ namespaces: [{ name: 'c_gate', chunking: false }, { name: 'c_links', chunking: false }] });
  const clock = createTestClock({ autoAdvance });
  const pub = fakePublisher();
  const metrics = createRuntimeMetrics();
  /** The upstream group's committed offset on every partition (undefined: none yet). */
  const upstream = { offset: undefined as bigint | undefined, asked: 0 };
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
    upstream: {
      groupId: 'p.fan-out',
      committedOffset: async () => {
        upstream.asked++;
        return upstream.offset;
      },
    },
    upstreamPassed: new Map(),
    giveUpAfterMs: 60_000,
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
  return { deps, handler, clock, upstream, ...pub, setGate, links };
}

const ev = (offset: number, e: Ev): ConsumedRecord => message(offset, Buffer.from(JSON.stringify(e)), { key: e.v });

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

  it('waits for a lagging upstream group however long it takes, then cascades once the gate cell shows up', async () => {
    const s = setup(undefined, { autoAdvance: false });
    await s.links('v', 1);
    const messages = [ev(7, { op: 'remove', v: 'v' })];
    for (const committed of [undefined, 3n, 7n]) {
      s.upstream.offset = committed; // never committed, then behind, then at the record (not past it)
      await s.clock.advance(3_600_000); // far beyond the give-up time: it does not apply before the upstream passed
      const round = fakePayload('p.in', 0, messages);
      await s.handler(round.payload);
      expect(round.log).toMatchObject({ committed: [], paused: 1 });
    }
    expect(s.published).toEqual([]);
    expect(s.upstream.asked).toBe(3);

    s.upstream.offset = 8n;
    await s.setGate('v');
    const last = fakePayload('p.in', 0, messages);
    await s.handler(last.payload);
    expect(s.published.map((r) => r.value?.toString())).toEqual(['v->p0']);
    expect(last.log.committed).toEqual(['p.in:0@8']);
  });

  it('gives a gate cell giveUpAfterMs after the upstream passed the record (a repair may write it), then dead-letters as cascade_failed saying why', async () => {
    const s = setup(undefined, { autoAdvance: false });
    const messages = [ev(7, { op: 'remove', v: 'v' }), ev(8, { op: 'other', v: 'x' })];
    s.upstream.offset = 9n;
    const first = fakePayload('p.in', 0, messages);
    await s.handler(first.payload);
    expect(first.log).toMatchObject({ committed: [], paused: 1 });

    await s.clock.advance(59_999);
    const early = fakePayload('p.in', 0, messages);
    await s.handler(early.payload);
    expect(early.log).toMatchObject({ committed: [], paused: 1 });

    await s.clock.advance(1);
    const due = fakePayload('p.in', 0, messages);
    await s.handler(due.payload);
    const [dead] = s.published;
    expect(headerString(dead?.headers, HEADERS.dlqReason)).toBe('cascade_failed');
    expect(headerString(dead?.headers, HEADERS.dlqError)).toMatch(/c_gate\[v\] still not visible 60000 ms after p\.fan-out was seen committed past offset 7/);
    expect(due.log.committed).toEqual(['p.in:0@9']);
  });

  it('measures the give-up time from when it saw the upstream pass, not from the record: a long lag then a quick tombstone is no failure', async () => {
    const s = setup(undefined, { autoAdvance: false });
    await s.links('v', 1);
    const messages = [ev(7, { op: 'remove', v: 'v' })];
    await s.handler(fakePayload('p.in', 0, messages).payload); // upstream has committed nothing
    await s.clock.advance(600_000);
    s.upstream.offset = 8n;
    await s.handler(fakePayload('p.in', 0, messages).payload); // passed just now: the clock starts here
    await s.clock.advance(30_000);
    await s.setGate('v');
    const last = fakePayload('p.in', 0, messages);
    await s.handler(last.payload);
    expect(s.published.map((r) => [r.topic, r.value?.toString()])).toEqual([['p.edge-mutations', 'v->p0']]);
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
