import { describe, expect, it } from 'vitest';
import { defaultEdgestreamConfig } from '../../schemas/config/edgestreamConfig.ts';
import { dlqTopicOf, repairTopicOf, topicName } from './topicName.ts';
import { topicSpecs } from './topicSpecs.ts';

describe('topic names', () => {
  it('prefixes logical names with the configured prefix', () => {
    expect(topicName('edgestream.', 'edge-mutations')).toBe('edgestream.edge-mutations');
    expect(topicName('', 'wide-partitions')).toBe('wide-partitions');
    expect(topicName('p-', repairTopicOf('edge-mutations'))).toBe('p-edge-mutations.repair');
    expect(topicName('p-', dlqTopicOf('edge-mutations'))).toBe('p-edge-mutations.dlq');
  });
});

describe('topicSpecs', () => {
  const config = defaultEdgestreamConfig({ topics: { prefix: 'x.', partitions: 12, replicationFactor: 1 } });
  const byKey = Object.fromEntries(topicSpecs(config).map((s) => [s.key, s]));

  it('gives the input and repair topics topics.partitions partitions and the DLQ one', () => {
    expect(byKey['edge-mutations']).toMatchObject({ topic: 'x.edge-mutations', numPartitions: 12, replicationFactor: 1 });
    expect(byKey['edge-mutations.repair']).toMatchObject({ topic: 'x.edge-mutations.repair', numPartitions: 12 });
    expect(byKey['edge-mutations.dlq']).toMatchObject({ topic: 'x.edge-mutations.dlq', numPartitions: 1 });
    expect(byKey['wide-partitions']).toMatchObject({ topic: 'x.wide-partitions', numPartitions: 12 });
  });

  it('sets delete retention: a week for input and repair, a month for the DLQ', () => {
    const retention = (key: string) => byKey[key]?.configEntries.find((e) => e.name === 'retention.ms')?.value;
    expect(retention('edge-mutations')).toBe(String(7 * 86_400_000));
    expect(retention('edge-mutations.repair')).toBe(String(7 * 86_400_000));
    expect(retention('edge-mutations.dlq')).toBe(String(30 * 86_400_000));
    expect(byKey['edge-mutations.dlq']?.configEntries).toContainEqual({ name: 'cleanup.policy', value: 'delete' });
  });

  it('gives every topic the configured replication factor and min.insync.replicas', () => {
    const durable = topicSpecs(defaultEdgestreamConfig({ topics: { replicationFactor: 3, minInsyncReplicas: 2 } }));
    expect(durable.length).toBeGreaterThan(5);
    for (const spec of durable) {
      expect(spec.replicationFactor, spec.topic).toBe(3);
      expect(spec.configEntries, spec.topic).toContainEqual({ name: 'min.insync.replicas', value: '2' });
    }
  });
});
