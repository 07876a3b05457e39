import { describe, expect, it } from 'vitest';
import { describeDrift } from '../../schemas/config/configDrift.ts';
import { keyspaceDrift } from './keyspaceDrift.ts';

const simple = (rf: number) => ({ class: 'org.apache.cassandra.locator.SimpleStrategy', replication_factor: String(rf) });

describe('keyspaceDrift', () => {
  it('finds nothing when the keyspace has the configured replication', () => {
    expect(keyspaceDrift('ks', { class: 'SimpleStrategy', replicationFactor: 3 }, simple(3))).toEqual([]);
    expect(keyspaceDrift('ks', { class: 'NetworkTopologyStrategy', dataCenters: { dc1: 3, dc2: 2 } }, { class: 'org.apache.cassandra.locator.NetworkTopologyStrategy', dc2: '2', dc1: '3' })).toEqual([]);
  });

  it('names a different replication factor, and the repair that must follow a raise', () => {
    const [d, ...rest] = keyspaceDrift('ks', { class: 'SimpleStrategy', replicationFactor: 3 }, simple(1));
    expect(rest).toEqual([]);
    expect(describeDrift(d!)).toBe('keyspace ks: replication factor 1, config cassandra.replicationFactor 3 (init --apply changes it; then run: nodetool repair -full ks on every node (new replicas start empty: until it finishes a quorum read may miss rows))');
  });

  it('names the class, and each data centre whose count differs', () => {
    expect(keyspaceDrift('ks', { class: 'NetworkTopologyStrategy', dataCenters: { dc1: 3 } }, simple(1)).map((d) => d.difference)).toEqual([
      'replication class SimpleStrategy, config cassandra.replication NetworkTopologyStrategy',
    ]);
    const drift = keyspaceDrift('ks', { class: 'NetworkTopologyStrategy', dataCenters: { dc1: 3, dc2: 3 } }, { class: 'org.apache.cassandra.locator.NetworkTopologyStrategy', dc1: '3', dc2: '1', dc3: '2' });
    expect(drift.map((d) => d.difference)).toEqual([
      'replication factor in dc2 1, config cassandra.replication.dataCenters.dc2 3',
      'replication factor in dc3 2, config cassandra.replication.dataCenters.dc3 0',
    ]);
    expect(drift.every((d) => d.fix === 'apply')).toBe(true);
    expect(drift[1]).toMatchObject({ after: expect.stringContaining('nodetool cleanup ks') });
  });
});
