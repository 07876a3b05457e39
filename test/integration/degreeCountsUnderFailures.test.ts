import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EdgeMutation } from '../../schemas/generated/EdgeMutation.ts';
import {
  decodeDegreeCount,
  decodeLinkValue,
  DEGREE_MIRROR_NAMESPACE,
  encodeDegreeMirrorMarkerKey,
  encodeDegreesKey,
  encodeVertexKey,
  forwardLinkNamespace,
  LinkState,
  reverseLinkNamespace,
} from '../../sinks/namespaces/index.ts';
import { followsMutation } from '../support/model/followsMutation.ts';
import { publishMutations } from '../support/publishMutations.ts';
import { waitFor } from './runtimeFixture.ts';
import { createPipelineEnv, type PipelineEnv } from '../support/pipelineEnv.ts';

const FOLLOWERS = 200;

/**
 * A link op dead-lettered after one of its link cells landed, on the real
 * stack (docs/architecture.md §9 "Counts that drift"): b has FOLLOWERS
 * followers, counted by the delta recounter (so b is mirrored), then ADD a→b
 * lands `follows_in[b]` while `follows_out[a]` times out on every attempt
 * (held back at the store seam) until the event is dead-lettered. The count
 * of b must come to include a: before the fix no mark was ever written for
 * a→b (follow-ups are written only when every write landed) and b's mirrored
 * count stayed one short for good.
 */
describe('degree counts when a link op is dead-lettered after a link cell landed', () => {
  let t: PipelineEnv;

  beforeAll(async () => {
    t = await createPipelineEnv({
      name: 'countfail',
      edgeTypes: ['follows'],
      // Two quick repairs, then the DLQ; the recounter holds an intent 2 × (500 + 2 000) ms.
      runtime: { writeRetryBudgetMs: 500, repairInitialBackoffMs: 200, repairMaxBackoffMs: 500, repairMaxAttempts: 2 },
    });
  }, 120_000);

  afterAll(async () => {
    await t?.teardown();
  });

  it('counts the reverse link that landed, and a, whose forward link never did, has no follow counted', { timeout: 240_000 }, async () => {
    const { env, pipeline, producer } = t;
    const tag = `d${Date.now().toString(36)}-`;
    const [a, b] = [`${tag}a`, `${tag}b`];
    const t0 = BigInt(Date.now() - 60_000) * 1000n;
    const degree = async (vertex: string, direction: 'out' | 'in') => {
      const cell = await env.store.namespace('degrees').get(vertex, encodeDegreesKey('follows', direction));
      return cell === undefined ? undefined : decodeDegreeCount(cell.value);
    };

    const followers: EdgeMutation[] = Array.from({ length: FOLLOWERS }, (_, i) => followsMutation('ADD_EDGE', `${tag}f${i}`, b, t0 + BigInt(i), { mutation_id: `${tag}f${i}` }));
    await publishMutations(producer, followers);
    await waitFor(`b's ${FOLLOWERS} followers counted`, async () => (await degree(b, 'in')) === BigInt(FOLLOWERS), { timeoutMs: 120_000 });
    // More followers than the recounter counts directly: b is mirrored, so a round reads only the peers its marks name.
    expect(await env.store.namespace(DEGREE_MIRROR_NAMESPACE).get(b, encodeDegreeMirrorMarkerKey('follows', 'in'))).toBeDefined();

    const add: EdgeMutation = followsMutation('ADD_EDGE', a, b, t0 + 10_000n, { mutation_id: `${tag}add` });
    t.holdBack = (m) => m.namespace === forwardLinkNamespace('follows') && m.id === a;
    await publishMutations(producer, [add]);
    await waitFor('the ADD to be dead-lettered', async () => (await env.dlqCount()) === 1, { timeoutMs: 120_000 });
    const reverse = await env.store.namespace(reverseLinkNamespace('follows')).get(b, encodeVertexKey(a));
    expect(reverse && decodeLinkValue(reverse.value).state).toBe(LinkState.ACTIVE);
    expect(await env.store.namespace(forwardLinkNamespace('follows')).get(a, encodeVertexKey(b))).toBeUndefined();

    await waitFor(`b's count to include a (${FOLLOWERS + 1})`, async () => (await degree(b, 'in')) === BigInt(FOLLOWERS + 1), { timeoutMs: 60_000 });
    expect(await degree(a, 'out')).toBe(0n);
    // The round writes the count before it deletes the marks and tallies the intents it counted: the tally comes a moment later.
    await waitFor('the stranded intents to be tallied', () => (pipeline.recounter?.stats().strandedIntents ?? 0) >= 2, { timeoutMs: 30_000 });
  });
});
