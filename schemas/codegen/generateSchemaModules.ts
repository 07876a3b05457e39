import { readFileSync } from 'node:fs';
import path from 'node:path';
import { avroTypeFor } from '../runtime/avroTypeFor.ts';
import { latestAvscFiles } from './latestAvscFiles.ts';
import { renderSchemaModule } from './renderSchemaModule.ts';

/** A generated module: where it goes and what it contains. */
export interface GeneratedModule {
  readonly outPath: string;
  readonly content: string;
}

/**
 * Renders `schemas/generated/<Name>.ts` for the newest version of every
 * .avsc under `schemas/avro`, without writing anything. Each schema is first
 * built with avroTypeFor, so an invalid schema or one whose unions avsc cannot
 * decode unwrapped fails here rather than generating types that lie.
 */
export function generateSchemaModules(repoRoot: string): GeneratedModule[] {
  const avroDir = path.join(repoRoot, 'schemas', 'avro');
  return latestAvscFiles(avroDir).map(({ name, version, fileName }) => {
    const schema = JSON.parse(readFileSync(path.join(avroDir, fileName), 'utf8')) as { name: string; namespace?: string };
    avroTypeFor(schema);
    if (schema.name !== name) throw new Error(`${fileName}: record is named ${schema.name}, file says ${name}`);
    return {
      outPath: path.join(repoRoot, 'schemas', 'generated', `${name}.ts`),
      content: renderSchemaModule({ path: `schemas/avro/${fileName}`, version, schema }),
    };
  });
}
