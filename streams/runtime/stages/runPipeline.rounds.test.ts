import { describe, expect, it } from 'vitest';
import { HEADERS, headerString } from '../failures/headers.ts';
import { fakePayload, message } from '../testing/fakeKafka.ts';
import { pipelineHarness } from '../testing/pipelineHarness.ts';
import { testEventBytes } from '../testing/testProcessor.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));
const ev = (offset: number, fields: Parameters<typeof testEventBytes>[0], headers?: Record<string, string>) =>
  message(offset, testEventBytes(fields), { key: fields.src ?? 'a', ...(headers ? { headers } : {}) });

describe('runPipeline: exclusive reads, final writes and routing', () => {
  it('an event whose exclusive cell an earlier event of the chunk read runs in a later round and reads that event\'s write', async () => {
    const exclusive = pipelineHarness({ processor: { exclusive: true } });
    await exclusive.handler(fakePayload('p.in', 0, [ev(0, { mutation_id: 'm0', dst: 'b', time: '1' }), ev(1, { mutation_id: 'm1', dst: 'c', time: '1' }), ev(2, { mutation_id: 'm2', dst: 'b', time: '2' }), ev(3, { mutation_id: 'm3', dst: 'b', time: '3' })]).payload);
    // m0 and m1 in round 1; m2 reads m0's write in round 2, m3 reads m2's in round 3.
    expect(exclusive.seen.reads).toEqual([undefined, undefined, 'm0', 'm2']);
    expect(exclusive.calls.filter((c) => c.some((m) => m.namespace === 't_out'))).toHaveLength(3);

    const shared = pipelineHarness();
    await shared.handler(fakePayload('p.in', 0, [ev(0, { mutation_id: 'm0', dst: 'b', time: '1' }), ev(1, { mutation_id: 'm2', dst: 'b', time: '2' })]).payload);
    expect(shared.seen.reads).toEqual([undefined, undefined]); // plain reads: one round, the state from before the chunk
  });

  it('final writes go after every write of the chunk landed, and not for an event whose write failed', async () => {
    const h = pipelineHarness({ processor: { finalIn: true } });
    h.failWrites((m) => (m.namespace === 't_out' && m.id === 'x' ? 'timeout' : undefined));
    const { payload } = fakePayload('p.in', 0, [ev(0, { mutation_id: 'm0', src: 'a', dst: 'b' }), ev(1, { mutation_id: 'm1', src: 'x', dst: 'b' })]);
    await h.handler(payload);
    const namespaces = h.calls.map((c) => [...new Set(c.map((m) => m.namespace))].join(','));
    expect(namespaces.indexOf('t_in')).toBeGreaterThan(namespaces.lastIndexOf('t_out'));
    expect(h.calls.flat().filter((m) => m.namespace === 't_in').map((m) => text(m.additions[0]?.value))).toEqual(['m0']);
    expect(text((await h.memory.namespace('t_in').get('b', utf8('x')))?.value)).toBeUndefined();
    expect(h.published.map((r) => r.topic)).toEqual(['p.in.repair']);
  });

  it("forwards a record found outside its routing key's partition there, once; processes the others as sole writer only in their key's partition", async () => {
    const h = pipelineHarness({ processor: { routed: true }, partitionOfKey: (key) => (key === 'elsewhere' ? 1 : 0) });
    const { payload, log } = fakePayload('p.in', 0, [
      ev(0, { mutation_id: 'home', src: 'a', dst: 'b' }),
      message(1, testEventBytes({ mutation_id: 'moved', src: 'elsewhere', dst: 'b' }), { key: 'not-the-src' }),
      ev(2, { mutation_id: 'bounced', src: 'elsewhere', dst: 'c' }, { [HEADERS.forwardedFrom]: '1' }),
    ]);
    await h.handler(payload);
    expect(h.published).toEqual([{ topic: 'p.in', key: 'elsewhere', value: expect.any(Buffer), headers: { [HEADERS.forwardedFrom]: '0' } }]);
    expect(headerString(h.published[0]?.headers, HEADERS.forwardedFrom)).toBe('0');
    expect(JSON.parse(String(h.published[0]?.value)).mutation_id).toBe('moved');
    // 'moved' is not applied here; 'bounced' (forwarded once already) is, but not as sole writer.
    expect(await h.memory.namespace('t_out').get('elsewhere', utf8('b'))).toBeUndefined();
    expect(text((await h.memory.namespace('t_out').get('elsewhere', utf8('c')))?.value)).toBe('bounced');
    expect(h.seen.soleWriter).toEqual([true, false]);
    expect(log.committed).toEqual(['p.in:0@3']);
    expect(h.metrics.snapshot().forwarded).toBe(1);

    const repairing = pipelineHarness({ processor: { routed: true }, partitionOfKey: () => 0, repairsPending: (p) => p === 0 });
    await repairing.handler(fakePayload('p.in', 0, [ev(0, { mutation_id: 'm0', src: 'a', dst: 'b' })]).payload);
    expect(repairing.seen.soleWriter).toEqual([false]); // a repair of this partition in flight races its consumer

    const repair = pipelineHarness({ processor: { routed: true } }); // no partitionOfKey: never forwards, never sole writer
    await repair.handler(fakePayload('p.in.repair', 0, [ev(0, { mutation_id: 'm0', src: 'elsewhere', dst: 'b' })]).payload);
    expect(repair.seen.soleWriter).toEqual([false]);
    expect(repair.published).toEqual([]);
  });

  it("keys a routed event's repair record by its routing key, whatever key the record came with, so it lands on the repair partition its consumer watches", async () => {
    const h = pipelineHarness({ processor: { routed: true }, partitionOfKey: () => 0 });
    h.failWrites((m) => (m.namespace === 't_in' ? 'timeout' : undefined));
    await h.handler(fakePayload('p.in', 0, [message(0, testEventBytes({ mutation_id: 'null-key', src: 'a', dst: 'b' })), message(1, testEventBytes({ mutation_id: 'other-key', src: 'a', dst: 'c' }), { key: 'other' })]).payload);
    expect(h.published.map((r) => [r.topic, r.key])).toEqual([['p.in.repair', 'a'], ['p.in.repair', 'a']]);

    const repair = pipelineHarness({ processor: { routed: true } }); // the repair runner re-publishes a failed repair under the routing key too
    repair.failWrites((m) => (m.namespace === 't_in' ? 'timeout' : undefined));
    await repair.handler(fakePayload('p.in.repair', 0, [message(0, testEventBytes({ mutation_id: 'old', src: 'a', dst: 'b' }))]).payload);
    expect(repair.published.map((r) => r.key)).toEqual(['a']);
  });
});
