import { describe, expect, it } from 'vitest';
import { backoffMs } from './backoff.ts';
import { repairFailureRouter } from './failureRouter.ts';
import { HEADERS, readRepairState } from './headers.ts';
import { fakePayload, message } from '../testing/fakeKafka.ts';
import { pipelineHarness } from '../testing/pipelineHarness.ts';
import { createTestClock } from '../testing/testClock.ts';
import { testEventBytes } from '../testing/testProcessor.ts';

/** The repair runner's handler: records are due at timestamp + back-off(attempt). */
function repairHarness() {
  const clock = createTestClock({ autoAdvance: false });
  const h = pipelineHarness({
    clock,
    route: repairFailureRouter({ repairTopic: 'p.in.repair', dlqTopic: 'p.in.dlq', maxAttempts: 3 }),
    dueAtMs: (m) => Number(m.timestamp) + backoffMs(Math.max(1, readRepairState(m.headers).attempt), 1_000, 60_000),
  });
  const repairRecord = (offset: number, attempt: number, timestamp: number, mutation: string) =>
    message(offset, testEventBytes({ mutation_id: mutation, dst: mutation }), { key: 'a', timestamp, headers: { [HEADERS.attempt]: Buffer.from(String(attempt)) } });
  return { ...h, clock, repairRecord };
}

describe('the repair runner’s batch handler', () => {
  it('processes due records, commits them, and pauses the partition until the next one is due', async () => {
    const h = repairHarness();
    const now = h.clock.nowMs();
    const { payload, log } = fakePayload('p.in.repair', 0, [
      h.repairRecord(0, 1, now - 1_000, 'due'), // due exactly now
      h.repairRecord(1, 2, now - 1_000, 'later'), // due in 1 s (2 s back-off)
      h.repairRecord(2, 1, now - 5_000, 'behind-it'), // due, but waits behind offset 1: a partition is repaired in order
    ]);
    await h.handler(payload);
    expect(log.committed).toEqual(['p.in.repair:0@1']);
    expect(log.paused).toBe(1);
    expect(log.resumed).toBe(0);
    await h.clock.advance(999);
    expect(log.resumed).toBe(0);
    await h.clock.advance(1);
    expect(log.resumed).toBe(1); // kafkajs now re-fetches from offset 1
  });

  it('lands the writes of a due repair record (fresh reads, same processor path)', async () => {
    const h = repairHarness();
    const { payload } = fakePayload('p.in.repair', 0, [h.repairRecord(0, 1, h.clock.nowMs() - 1_000, 'fixed')]);
    await h.handler(payload);
    expect(await h.memory.namespace('t_out').get('a', new TextEncoder().encode('fixed'))).toBeDefined();
    expect(h.published).toEqual([]);
  });

  it('re-publishes a still-failing record as the next attempt, and parks it after the last', async () => {
    const h = repairHarness();
    h.failWrites(() => 'unavailable');
    const now = h.clock.nowMs();
    const { payload } = fakePayload('p.in.repair', 0, [h.repairRecord(0, 1, now - 1_000, 'one'), h.repairRecord(1, 3, now - 4_000, 'three')]);
    const run = h.handler(payload);
    for (let i = 0; i < 20; i++) await h.clock.advance(500); // let the write retries sleep through their budget
    await run;
    expect(h.published.map((r) => [r.topic, String(r.headers?.[HEADERS.attempt] ?? ''), String(r.headers?.[HEADERS.dlqReason] ?? '')])).toEqual([
      ['p.in.repair', '2', ''],
      ['p.in.dlq', '3', 'repair_exhausted'],
    ]);
    expect(h.metrics.snapshot()).toMatchObject({ sentToRepair: 1, deadLettered: { repair_exhausted: 1 } });
  });
});
