import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { knownSchemas } from '../../schemas/index.ts';
import type { TwoLevelMapStore } from '../../sinks/store/index.ts';
import { createEdgeProducer, type EdgeProducer } from '../../streams/producer/index.ts';
import { backoffMs, createProcessorRuntime, createRepairRunner, HEADERS, type Runner } from '../../streams/runtime/index.ts';
import { caughtUp, createRuntimeFixture, linkProcessor, readTopic, recordCount, waitFor, type ConsumedRecord, type RuntimeFixture } from './runtimeFixture.ts';

// Real Kafka + registry + Cassandra. The outage is real too: the keyspace is created with
// replication factor 3 on the one-node cluster, so every LOCAL_QUORUM write fails with
// "Not enough replicas available" (StoreError 'unavailable', retriable) until the test
// lowers it to 1 with ALTER KEYSPACE.

const REPAIR = { writeRetryBudgetMs: 300, repairInitialBackoffMs: 400, repairMaxBackoffMs: 1_000, repairMaxAttempts: 3 };

describe('repair runner on real Kafka and Cassandra', () => {
  let f: RuntimeFixture;
  let store: TwoLevelMapStore;
  let producer: EdgeProducer;
  const runners: Runner[] = [];

  const options = () => ({
    kafka: f.kafka,
    serde: f.serde,
    store,
    processor: linkProcessor({ reads: false }),
    schema: knownSchemas.EdgeMutation,
    validate: f.validate,
    config: f.config,
    logger: f.logger,
    tuning: { progressIntervalMs: 1_000 },
  });
  const started = async (runner: Runner) => {
    runners.push(runner);
    await runner.start();
    return runner;
  };
  const byKey = (records: readonly ConsumedRecord[]) => {
    const groups = new Map<string, ConsumedRecord[]>();
    for (const r of records) {
      const key = r.key?.toString() as string;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    return groups;
  };

  beforeAll(async () => {
    f = await createRuntimeFixture('repair', REPAIR);
    store = await f.openStore({ replication: { class: 'SimpleStrategy', replicationFactor: 3 } });
    producer = createEdgeProducer({ kafka: f.kafka, serde: f.serde, config: f.config });
  });

  afterAll(async () => {
    for (const r of runners) await r.stop().catch(() => {});
    await producer?.close();
    await f?.teardown();
  });

  it('re-publishes a failing event with attempt+1 after each back-off, then parks it in the DLQ with the last error', async () => {
    const sent = await Promise.all([...['a1', 'a2', 'a3'].map((src) => producer.addEdge({ type: 'follows', src, dst: 'x' })), producer.flush()]);
    const runtime = await started(createProcessorRuntime(options()));
    const repair = await started(createRepairRunner(options()));
    onTestFinished(() => Promise.all([runtime.stop(), repair.stop()]).then(() => {}));
    await waitFor('three events parked in the DLQ', async () => (await recordCount(f.admin, f.topics.dlq)) >= 3, { timeoutMs: 60_000 });

    const repairs = byKey(await readTopic(f.kafka, f.topics.repair, 9));
    for (const src of ['a1', 'a2', 'a3']) {
      const attempts = repairs.get(src) ?? [];
      expect(attempts.map((r) => r.headers[HEADERS.attempt])).toEqual(['1', '2', '3']);
      const [first, second, third] = attempts as [ConsumedRecord, ConsumedRecord, ConsumedRecord];
      expect(new Set(attempts.map((r) => r.headers[HEADERS.firstFailureAt]))).toEqual(new Set([String(first.timestamp)]));
      expect(attempts.every((r) => r.headers[HEADERS.failedNamespaces] === 'it_in,it_out')).toBe(true);
      expect(first.headers[HEADERS.error]).toMatch(/unavailable.*Not enough replicas/);
      expect(first.headers[HEADERS.sourceTopic]).toBe(f.topics.input);
      expect(attempts.every((r) => r.headers[HEADERS.sourceOffset] === first.headers[HEADERS.sourceOffset])).toBe(true);
      // each attempt waited at least its back-off, measured from the previous record's timestamp
      // (and not much more: a resumed partition is re-fetched within the repair runner's short fetch wait)
      const [b1, b2] = [1, 2].map((a) => backoffMs(a, REPAIR.repairInitialBackoffMs, REPAIR.repairMaxBackoffMs)) as [number, number];
      expect(second.timestamp - first.timestamp).toBeGreaterThanOrEqual(b1);
      expect(second.timestamp - first.timestamp).toBeLessThan(b1 + 3_000);
      expect(third.timestamp - second.timestamp).toBeGreaterThanOrEqual(b2);
      expect(third.timestamp - second.timestamp).toBeLessThan(b2 + 3_000);
    }

    const dlq = await readTopic(f.kafka, f.topics.dlq, 3);
    const original = byKey(await readTopic(f.kafka, f.topics.input, 3));
    for (const r of dlq) {
      expect(r.headers[HEADERS.dlqReason]).toBe('repair_exhausted');
      expect(r.headers[HEADERS.dlqError]).toMatch(/gave up after 3 repair attempts: write failed: .*unavailable/);
      expect(r.headers[HEADERS.dlqSourceTopic]).toBe(f.topics.repair);
      expect(r.headers[HEADERS.attempt]).toBe('3');
      expect(r.value).toEqual(original.get(r.key?.toString() as string)?.[0]?.value);
      const event = (await f.serde.decode(r.value as Buffer, knownSchemas.EdgeMutation)).value;
      expect(sent.slice(0, 3).map((s) => (s as { mutationId: string }).mutationId)).toContain(event.mutation_id);
    }
    expect(runtime.metrics()).toMatchObject({ sentToRepair: 3 });
    expect(repair.metrics()).toMatchObject({ records: 9, sentToRepair: 6, deadLettered: { repair_exhausted: 3 } });
    await waitFor('the repair group to commit', () => caughtUp(f.admin, repair.groupId, f.topics.repair));
  });

  it('lands a repaired event once the store recovers, and dead-letters nothing', async () => {
    const sent = await Promise.all([...['b1', 'b2', 'b3'].map((src) => producer.addEdge({ type: 'follows', src, dst: 'y' })), producer.flush()]);
    const runtime = await started(createProcessorRuntime(options()));
    onTestFinished(() => runtime.stop());
    await waitFor('the events in the repair topic', async () => (await recordCount(f.admin, f.topics.repair)) >= 12);
    await waitFor('the input committed', () => caughtUp(f.admin, runtime.groupId, f.topics.input));
    await runtime.stop();

    await f.cql.execute(`ALTER KEYSPACE ${f.keyspace} WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}`);
    const repair = await started(createRepairRunner(options()));
    onTestFinished(() => repair.stop());
    await waitFor('the repair group to catch up', () => caughtUp(f.admin, repair.groupId, f.topics.repair), { timeoutMs: 60_000 });

    const ids = sent.slice(0, 3).map((s) => (s as { mutationId: string }).mutationId);
    for (const [i, src] of ['b1', 'b2', 'b3'].entries()) {
      const cell = await store.namespace('it_out').get(src, new TextEncoder().encode('y'));
      expect(new TextDecoder().decode(cell?.value)).toBe(ids[i]);
    }
    expect(repair.metrics()).toMatchObject({ done: 3, sentToRepair: 0 });
    expect(await recordCount(f.admin, f.topics.dlq)).toBe(3); // only the first test's
  });
});
