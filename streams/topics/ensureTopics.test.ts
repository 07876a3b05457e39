import { describe, expect, it } from 'vitest';
import { defaultEdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { ensureTopics, type TopicAdmin } from './ensureTopics.ts';
import { TopicError } from './TopicError.ts';
import { topicSpecs } from './topicSpecs.ts';

/** An in-memory admin: topics are a name → partition count map. */
function fakeAdmin(existing: Record<string, number>, { leaderless = 0 } = {}) {
  const topics = new Map(Object.entries(existing));
  const createCalls: string[][] = [];
  let leaderlessFetches = leaderless;
  const admin: TopicAdmin = {
    listTopics: async () => [...topics.keys()],
    createTopics: async ({ topics: specs }) => {
      createCalls.push(specs.map((s) => s.topic));
      for (const s of specs) topics.set(s.topic, s.numPartitions ?? 1);
      return true;
    },
    fetchTopicMetadata: async (args) => {
      const leader = leaderlessFetches-- > 0 ? -1 : 1;
      return {
        topics: (args?.topics ?? []).flatMap((name) => {
          const n = topics.get(name);
          return n === undefined
            ? []
            : [{ name, partitions: Array.from({ length: n }, (_, partitionId) => ({ partitionId, leader, partitionErrorCode: 0, replicas: [1], isr: [1] })) }];
        }),
      };
    },
  };
  return { admin, createCalls };
}

const config = defaultEdgestreamConfig({ topics: { prefix: 't.', partitions: 3, replicationFactor: 1 } });
const all = topicSpecs(config).map((s) => s.topic);

describe('ensureTopics', () => {
  it('creates only the missing topics and reports what existed', async () => {
    const { admin, createCalls } = fakeAdmin({ 't.edge-mutations': 3 });
    const result = await ensureTopics(admin, config);
    expect(createCalls).toEqual([all.filter((t) => t !== 't.edge-mutations')]);
    expect(result).toEqual({ created: all.filter((t) => t !== 't.edge-mutations'), existing: ['t.edge-mutations'] });
  });

  it('is idempotent: a second call creates nothing', async () => {
    const { admin, createCalls } = fakeAdmin({});
    await ensureTopics(admin, config);
    const again = await ensureTopics(admin, config);
    expect(createCalls).toHaveLength(1);
    expect(again).toEqual({ created: [], existing: all });
  });

  it('waits until every partition has a leader', async () => {
    const { admin } = fakeAdmin({}, { leaderless: 2 });
    await expect(ensureTopics(admin, config)).resolves.toMatchObject({ created: all });
  });

  it('refuses an existing topic whose partition count differs from the config (a fixed setting)', async () => {
    const { admin } = fakeAdmin({ 't.edge-mutations': 6 });
    const error = await ensureTopics(admin, config).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TopicError);
    expect(error).toMatchObject({ code: 'PARTITION_MISMATCH', retriable: false });
    expect((error as Error).message).toContain('t.edge-mutations has 6 partitions but the config says 3');
  });

  it('gives up with LEADERS_UNAVAILABLE when leaders never appear', async () => {
    const { admin } = fakeAdmin({}, { leaderless: 1_000 });
    await expect(ensureTopics(admin, config, { timeoutMs: 250 })).rejects.toMatchObject({ code: 'LEADERS_UNAVAILABLE' });
  });
});
