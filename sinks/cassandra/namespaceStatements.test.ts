import { describe, expect, it } from 'vitest';
import { namespaceStatements } from './namespaceStatements.ts';

const all = (o: unknown): string[] => (typeof o === 'string' ? [o] : Object.values(o as object).flatMap(all));

describe('namespaceStatements', () => {
  const cql = namespaceStatements('edges', 'links_out');

  it('binds every value: no literals in data statements, only validated quoted identifiers', () => {
    for (const statement of all(cql)) {
      expect(statement).not.toMatch(/'/);
      expect(statement).toMatch(/"edges"\."links_out(__chunks)?"/);
      expect(statement).toMatch(/\?/);
    }
  });

  it('writes with the caller timestamp and reads the write time', () => {
    expect(cql.insert).toBe('INSERT INTO "edges"."links_out" (id, key, value, value_metadata) VALUES (?, ?, ?, ?) USING TIMESTAMP ?');
    expect(cql.deleteRow).toBe('DELETE FROM "edges"."links_out" USING TIMESTAMP ? WHERE id = ? AND key = ?');
    expect(cql.deleteRows).toBe('DELETE FROM "edges"."links_out" USING TIMESTAMP ? WHERE id = ? AND key IN ?');
    expect(cql.get).toMatch(/WRITETIME\(value\) AS write_time/);
  });

  it('slices with an inclusive start, an exclusive end and a bound limit', () => {
    expect(cql.slice.desc.bounded).toBe(
      'SELECT key, value, value_metadata, WRITETIME(value) AS write_time FROM "edges"."links_out" ' +
        'WHERE id = ? AND key >= ? AND key < ? ORDER BY key DESC LIMIT ?',
    );
    expect(cql.slice.asc.open).toMatch(/WHERE id = \? AND key >= \? ORDER BY key ASC LIMIT \?$/);
  });

  it('reads the first keys of many partitions with a per-partition and an overall limit', () => {
    expect(cql.sliceMany).toMatch(/^SELECT id, key, value, value_metadata, WRITETIME\(value\) AS write_time FROM "edges"\."links_out" WHERE id IN \? PER PARTITION LIMIT \? LIMIT \?$/);
  });

  it('reads values without the write time for readers, with the same clauses', () => {
    expect(cql.values.slice.desc.bounded).toBe(cql.slice.desc.bounded.replace(', WRITETIME(value) AS write_time', ''));
    expect(cql.values.getKeys).toBe('SELECT key, value, value_metadata FROM "edges"."links_out" WHERE id = ? AND key IN ?');
    expect(cql.values.sliceMany).not.toMatch(/WRITETIME/);
    expect(cql.values.get).not.toMatch(/WRITETIME/);
  });
});
