import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { knownSchemas } from '../knownSchemas.ts';
import { generateSchemaModules } from './generateSchemaModules.ts';
import { latestAvscFiles } from './latestAvscFiles.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const REGENERATE = 'stale: run `npm run codegen` and commit the result';

describe('generated schema modules', () => {
  const modules = generateSchemaModules(repoRoot);

  it.each(modules.map((m) => [path.relative(repoRoot, m.outPath), m.content] as const))(
    '%s matches what the .avsc generates',
    (outPath, expected) => {
      expect(readFileSync(path.join(repoRoot, outPath), 'utf8'), REGENERATE).toBe(expected);
    },
  );

  it('has no generated module without an .avsc', () => {
    const expected = modules.map((m) => path.basename(m.outPath)).sort();
    expect(readdirSync(path.join(repoRoot, 'schemas', 'generated')).sort(), REGENERATE).toEqual(expected);
  });

  it('lists every newest .avsc in knownSchemas', () => {
    const fromFiles = latestAvscFiles(path.join(repoRoot, 'schemas', 'avro')).map((f) => [f.name, f.version]);
    const fromRegistry = Object.values(knownSchemas).map((k) => [k.name, k.version]);
    expect(fromRegistry.sort()).toEqual(fromFiles.sort());
  });
});
