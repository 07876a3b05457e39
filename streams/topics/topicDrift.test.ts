import { describe, expect, it } from 'vitest';
import { describeDrift } from '../../schemas/config/configDrift.ts';
import { defaultEdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { topicDrift, type ObservedTopic } from './topicDrift.ts';
import { topicSpecs } from './topicSpecs.ts';

const config = defaultEdgestreamConfig({ topics: { prefix: 'p.', partitions: 6, replicationFactor: 3, minInsyncReplicas: 2 } });
const input = topicSpecs(config).find((s) => s.key === 'edge-mutations')!;
const observed = (o: Partial<ObservedTopic>): ObservedTopic => ({ topic: input.topic, partitions: 6, replicationFactor: 3, minInsyncReplicas: 2, dynamicConfig: [], ...o });

describe('topicDrift', () => {
  it('finds nothing when the topic matches its spec', () => {
    expect(topicDrift(input, observed({}), 'k:9092')).toEqual([]);
  });

  it('names each difference; only min.insync.replicas is changed by --apply', () => {
    const drift = topicDrift(input, observed({ partitions: 3, replicationFactor: 1, minInsyncReplicas: 1 }), 'k:9092');
    expect(drift.map((d) => [d.difference, d.fix])).toEqual([
      ['3 partitions, config topics.partitions 6', 'manual'],
      ['replication factor 1, config topics.replicationFactor 3', 'manual'],
      ['min.insync.replicas 1, config topics.minInsyncReplicas 2', 'apply'],
    ]);
    expect(describeDrift(drift[0]!)).toMatch(/^topic p\.edge-mutations: 3 partitions, config topics\.partitions 6 \(init cannot change it safely; adding partitions moves keys .*per-key order breaks/);
    expect(describeDrift(drift[1]!)).toContain('kafka-reassign-partitions.sh --bootstrap-server k:9092');
  });

  it('says partitions cannot be removed', () => {
    expect(describeDrift(topicDrift(input, observed({ partitions: 12 }), 'k:9092')[0]!)).toContain('Kafka cannot remove partitions');
  });
});
