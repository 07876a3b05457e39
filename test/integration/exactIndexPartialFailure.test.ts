import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import { decodeLinkValue, encodeVertexKey, forwardLinkNamespace, LinkState } from '../../sinks/namespaces/index.ts';
import { applyLww } from '../support/model/applyLww.ts';
import { modelGraphLines } from '../support/model/graphLines.ts';
import { readStoreGraph } from '../support/model/readStoreGraph.ts';
import { publishMutations } from '../support/publishMutations.ts';
import { waitForQuiescence } from '../support/waitForQuiescence.ts';
import { waitFor } from './runtimeFixture.ts';
import { createPipelineEnv, type PipelineEnv } from '../support/pipelineEnv.ts';

/**
 * One write unit of a link op fails mid-op on the real stack: a fresh ADD a→b
 * whose forward link `follows_out[a]` times out (on every attempt, until the
 * fault is lifted) while its reverse link lands, then a REMOVE a→b that lands.
 * The ADD's exact index entries must not outlive it: b's newest followers
 * never list a once the REMOVE landed (before the fix they did, trusted, until
 * the repair ran, and for good had it been dead-lettered). Once the fault is
 * lifted the repair lands the ADD, which loses to the REMOVE, and the store
 * equals the LWW model.
 */
describe('the exact index when a link write fails mid-op', () => {
  let t: PipelineEnv;

  beforeAll(async () => {
    t = await createPipelineEnv({
      name: 'exactpartial',
      edgeTypes: ['follows'],
      // The first repair comes well after the REMOVE: a repair writes unverified entries, which would hide the defect.
      runtime: { writeRetryBudgetMs: 500, repairInitialBackoffMs: 15_000, repairMaxBackoffMs: 15_000, repairMaxAttempts: 20 },
    });
  }, 120_000);

  afterAll(async () => {
    await t?.teardown();
  });

  it('a REMOVE after an ADD whose forward link timed out leaves no follower listed; the repair converges to the model', { timeout: 180_000 }, async () => {
    const { env, pipeline, producer } = t;
    const tag = `x${Date.now().toString(36)}-`;
    const [a, b] = [`${tag}a`, `${tag}b`];
    const t0 = BigInt(Date.now() - 60_000) * 1000n;
    const edge = { edge_type: 'follows', src: a, dst: b, properties: {}, property_keys: [] };
    const add: EdgeMutation = { ...edge, mutation_id: `${tag}add`, op: 'ADD_EDGE', event_time: t0 };
    const remove: EdgeMutation = { ...edge, mutation_id: `${tag}remove`, op: 'REMOVE_EDGE', event_time: t0 + 1_000n };
    const followersOf = async (v: string) => (await readStoreGraph(env.store, ['follows'], [v])).filter((line) => line.startsWith(`newest follows in ${v}`));

    // The write held back: the ADD's forward link (by namespace, partition and write time), until the test lifts it.
    t.holdBack = (m) => m.namespace === forwardLinkNamespace('follows') && m.id === a && m.writeTime === add.event_time;
    await publishMutations(producer, [add]);
    await waitFor('the ADD to go to repair', () => pipeline.runners.some((r) => r.metrics().sentToRepair > 0), { timeoutMs: 60_000 });
    await publishMutations(producer, [remove]);
    await waitFor('the REMOVE to land', async () => {
      const cell = await env.store.namespace(forwardLinkNamespace('follows')).get(a, encodeVertexKey(b));
      return cell !== undefined && decodeLinkValue(cell.value).state === LinkState.REMOVED;
    });
    expect(await followersOf(b)).toEqual([]);

    t.holdBack = () => false;
    await waitForQuiescence({ admin: env.admin, config: env.config, store: env.store, recount: () => pipeline.recounter!.runOnce(), timeoutMs: 120_000 });
    const lines = await readStoreGraph(env.store, ['follows'], [a, b]);
    expect(lines.filter((line) => !line.startsWith('degree'))).toEqual(modelGraphLines(applyLww([add, remove])).filter((line) => !line.startsWith('degree')));
    expect(await env.dlqCount()).toBe(0);
  });
});
