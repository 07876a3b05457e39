import { describe, expect, it } from 'vitest';
import { renderSchemaModule } from './renderSchemaModule.ts';

const render = (schema: object): string =>
  renderSchemaModule({ path: 'x.v1.avsc', version: 1, schema: schema as { name: string } });

describe('renderSchemaModule', () => {
  it('maps each Avro primitive to the value shape avroTypeFor decodes to', () => {
    const out = render({
      type: 'record',
      name: 'P',
      fields: ['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string'].map((t) => ({ name: `f_${t}`, type: t })),
    });
    for (const line of [
      'readonly f_null: null;',
      'readonly f_boolean: boolean;',
      'readonly f_int: number;',
      'readonly f_long: bigint;',
      'readonly f_float: number;',
      'readonly f_double: number;',
      'readonly f_bytes: Buffer;',
      'readonly f_string: string;',
    ]) {
      expect(out).toContain(line);
    }
  });

  it('declares nested records and enums once and refers to them by name afterwards', () => {
    const out = render({
      type: 'record',
      name: 'Outer',
      namespace: 'io.x',
      fields: [
        { name: 'a', type: { type: 'record', name: 'Inner', fields: [{ name: 'k', type: { type: 'enum', name: 'K', symbols: ['A', 'B'] } }] } },
        { name: 'b', type: ['null', 'Inner'] },
        { name: 'c', type: { type: 'array', items: ['null', 'io.x.K'] } },
        { name: 'd', type: { type: 'map', values: 'K' } },
      ],
    });
    expect(out).toContain('readonly a: Inner;');
    expect(out).toContain('readonly b: null | Inner;');
    expect(out).toContain('readonly c: readonly (null | K)[];');
    expect(out).toContain('readonly d: Readonly<Record<string, K>>;');
    expect(out).toContain("export const K = {\n  A: 'A',\n  B: 'B',\n} as const;");
    expect(out.match(/export interface Inner/g)).toHaveLength(1);
  });

  it('rejects a reference to an undeclared type', () => {
    expect(() => render({ type: 'record', name: 'R', fields: [{ name: 'x', type: 'Nope' }] })).toThrow(/undefined Avro type name: Nope/);
  });

  it('escapes a doc string that would close the comment', () => {
    expect(render({ type: 'record', name: 'R', doc: 'a */ b', fields: [] })).toContain('/** a *\\/ b */');
  });
});
