import { describe, expect, it } from 'vitest';
import { parseConfig } from '../store/storeConfig.ts';
import { cassandraStoreConfigSchema } from './cassandraStoreConfig.ts';

const base = { contactPoints: ['127.0.0.1:9042'], localDataCenter: 'datacenter1', keyspace: 'edges', namespaces: [{ name: 'links_out' }] };
const parse = (input: unknown) => parseConfig(cassandraStoreConfigSchema, input, 'cassandra store config');

describe('cassandra store config', () => {
  it('fills in defaults: SimpleStrategy RF 1, LOCAL_QUORUM, 256 KiB chunks', () => {
    const c = parse(base);
    expect(c.replication).toEqual({ class: 'SimpleStrategy', replicationFactor: 1 });
    expect([c.consistency, c.maxInlineValueBytes, c.chunkBytes, c.mutationConcurrency]).toEqual(['LOCAL_QUORUM', 262_144, 262_144, 16]);
    expect(c.namespaces).toEqual([{ name: 'links_out', chunking: true, resurrectionSafe: false }]);
  });

  it.each([
    [{ ...base, keyspace: 'Edges' }, /keyspace: must match/],
    [{ ...base, contactPoints: [] }, /contactPoints: /],
    [{ ...base, namespaces: [{ name: 'a-b' }] }, /namespaces\.0\.name: must match/],
    [{ ...base, replication: { class: 'NetworkTopologyStrategy', dataCenters: { "dc1': 1}; --": 1 } } }, /replication\.dataCenters/],
    [{ ...base, consistency: 'EACH_QUORUM' }, /consistency: /],
    [{ ...base, chunkBytes: 0 }, /chunkBytes: /],
    [{ ...base, keyspce: 'typo' }, /Unrecognized key/],
  ])('rejects a bad config naming the field (%#)', (input, message) => {
    expect(() => parse(input)).toThrow(message);
  });
});
