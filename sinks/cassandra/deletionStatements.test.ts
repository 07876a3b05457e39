import { describe, expect, it } from 'vitest';
import { deletionStatements, MAX_KEYS_PER_DELETE } from './deletionStatements.ts';

const cql = { deleteRow: 'ROW', deleteRows: 'ROWS' };
const key = (n: number) => Uint8Array.of(n >> 8, n & 0xff);

describe('deletionStatements', () => {
  it('puts the keys of one write time in one IN statement, a lone key in a row statement', () => {
    const statements = deletionStatements(cql, 'p', [
      { key: key(1), writeTime: 10n },
      { key: key(2), writeTime: 20n },
      { key: key(3), writeTime: 10n },
    ]);
    expect(statements.map((s) => [s.query, s.params[0], s.params[1]])).toEqual([
      ['ROWS', 10n, 'p'],
      ['ROW', 20n, 'p'],
    ]);
    expect((statements[0]?.params[2] as Buffer[]).map((k) => k.toString('hex'))).toEqual(['0001', '0003']);
    expect((statements[1]?.params[2] as Buffer).toString('hex')).toBe('0002');
  });

  it('cuts a long list of one time into statements of at most MAX_KEYS_PER_DELETE keys, every key once', () => {
    const n = 2 * MAX_KEYS_PER_DELETE + 1;
    const statements = deletionStatements(cql, 'p', Array.from({ length: n }, (_, i) => ({ key: key(i), writeTime: 7n })));
    expect(statements.map((s) => s.query)).toEqual(['ROWS', 'ROWS', 'ROW']);
    const keys = statements.flatMap((s) => (Array.isArray(s.params[2]) ? (s.params[2] as Buffer[]) : [s.params[2] as Buffer]));
    expect(new Set(keys.map((k) => k.toString('hex'))).size).toBe(n);
  });

  it('no deletions, no statements', () => {
    expect(deletionStatements(cql, 'p', [])).toEqual([]);
  });
});
