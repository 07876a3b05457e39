import { tsTypeFor, type TypeScope } from './tsTypeFor.ts';

/** What the generator knows about one .avsc file. */
export interface AvscSource {
  /** Path relative to the repo root, for the header comment. */
  readonly path: string;
  readonly version: number;
  /** The parsed .avsc (a record schema). */
  readonly schema: { readonly name: string; readonly namespace?: string };
}

/**
 * The TS module generated from one .avsc: a type per named Avro type
 * (records as readonly interfaces, enums as an `as const` table plus a union
 * type), the parsed schema as `<Name>Avsc` and its version as
 * `<Name>AvscVersion`. Pure, so the freshness test can compare its output
 * with the file on disk.
 */
export function renderSchemaModule(source: AvscSource): string {
  const scope: TypeScope = { namespace: source.schema.namespace, declared: new Map() };
  const root = tsTypeFor(source.schema as never, scope);
  const declarations = [...scope.declared.values()].map((d) => d.source).join('\n');
  return (
    `// GENERATED from ${source.path} by \`npm run codegen\`. Do not edit.\n` +
    `// Avro long is bigint here (see schemas/runtime/bigintLongType.ts).\n\n` +
    declarations +
    `\n/** The parsed Avro schema of ${root} (${source.path}). */\n` +
    `export const ${root}Avsc = ${JSON.stringify(source.schema, null, 2)} as const;\n\n` +
    `/** The version of ${root}Avsc, from its file name. */\n` +
    `export const ${root}AvscVersion = ${source.version};\n`
  );
}
