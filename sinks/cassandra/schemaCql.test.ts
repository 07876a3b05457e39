import { describe, expect, it } from 'vitest';
import { createChunkTableCql, createKeyspaceCql, createNamespaceTableCql, quoteIdentifier } from './schemaCql.ts';
import { compactionOptions, compressionOptions, gcGraceSeconds, tableOptionsClause } from './tableOptions.ts';

describe('schema CQL', () => {
  it('creates the keyspace with SimpleStrategy or NetworkTopologyStrategy', () => {
    expect(createKeyspaceCql('edges', { class: 'SimpleStrategy', replicationFactor: 1 })).toBe(
      `CREATE KEYSPACE IF NOT EXISTS "edges" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}`,
    );
    expect(createKeyspaceCql('edges', { class: 'NetworkTopologyStrategy', dataCenters: { dc1: 3, 'eu-west.2': 2 } })).toBe(
      `CREATE KEYSPACE IF NOT EXISTS "edges" WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'eu-west.2': 2}`,
    );
  });

  it('creates a namespace as the two-level map table of DESIGN.md section 4', () => {
    expect(createNamespaceTableCql('edges', 'links_out', {})).toBe(
      'CREATE TABLE IF NOT EXISTS "edges"."links_out" (id text, key blob, value blob, value_metadata blob, ' +
        'PRIMARY KEY (id, key)) WITH CLUSTERING ORDER BY (key ASC)',
    );
  });

  it('gives a namespace that expires its cells a default TTL', () => {
    expect(createNamespaceTableCql('edges', 'wide_rows_log', { gcGraceSeconds: 0, defaultTimeToLiveSeconds: 86_400 })).toMatch(/WITH CLUSTERING ORDER BY \(key ASC\) AND gc_grace_seconds = 0 AND default_time_to_live = 86400$/);
  });

  it('creates the chunk table with one partition per (id, key)', () => {
    expect(createChunkTableCql('edges', 'props', { gcGraceSeconds: 3600 })).toBe(
      'CREATE TABLE IF NOT EXISTS "edges"."props__chunks" (id text, key blob, write_ts bigint, digest blob, idx int, data blob, ' +
        'PRIMARY KEY ((id, key), write_ts, digest, idx)) WITH CLUSTERING ORDER BY (write_ts ASC, digest ASC, idx ASC) AND gc_grace_seconds = 3600',
    );
  });

  it('refuses anything but a validated identifier', () => {
    expect(quoteIdentifier('key')).toBe('"key"');
    for (const bad of ['Key', 'a"b', 'x; DROP TABLE y', '', 'a'.repeat(49)]) expect(() => quoteIdentifier(bad)).toThrow(TypeError);
  });
});

describe('table options', () => {
  it('builds each option clause', () => {
    expect(compactionOptions('LeveledCompactionStrategy')).toBe(`compaction = {'class': 'LeveledCompactionStrategy'}`);
    expect(compressionOptions('ZstdCompressor')).toBe(`compression = {'class': 'ZstdCompressor'}`);
    expect(compressionOptions('none')).toBe(`compression = {'enabled': 'false'}`);
    expect(gcGraceSeconds(0)).toBe('gc_grace_seconds = 0');
  });

  it('emits only the options that were set, after the clustering order', () => {
    expect(tableOptionsClause('key ASC', { compaction: 'UnifiedCompactionStrategy', compression: 'LZ4Compressor' })).toBe(
      ` WITH CLUSTERING ORDER BY (key ASC) AND compaction = {'class': 'UnifiedCompactionStrategy'} AND compression = {'class': 'LZ4Compressor'}`,
    );
  });
});
