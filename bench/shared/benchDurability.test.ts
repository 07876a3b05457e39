import { describe, expect, it } from 'vitest';
import { describeDurability, SINGLE_NODE_DURABILITY } from './benchDurability.ts';

describe('describeDurability', () => {
  it('names the replication, the levels and the topics’ replicas in one line', () => {
    expect(describeDurability(SINGLE_NODE_DURABILITY)).toBe('SimpleStrategy RF 1, LOCAL_QUORUM writes, LOCAL_QUORUM reads, LOCAL_SERIAL; topics RF 1, min.insync.replicas 1');
    expect(
      describeDurability({
        topics: { replicationFactor: 3, minInsyncReplicas: 2 },
        cassandra: { replication: { class: 'NetworkTopologyStrategy', dataCenters: { datacenter1: 3 } }, consistency: { writes: 'LOCAL_QUORUM', reads: 'LOCAL_QUORUM', serial: 'LOCAL_SERIAL' } },
      }),
    ).toBe('NetworkTopologyStrategy {datacenter1: 3}, LOCAL_QUORUM writes, LOCAL_QUORUM reads, LOCAL_SERIAL; topics RF 3, min.insync.replicas 2');
  });
});
