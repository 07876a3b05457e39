/**
 * Maps an Avro schema to a TypeScript type expression, in the value shapes
 * `avroTypeFor` decodes to: long → bigint, int/float/double → number,
 * bytes/fixed → Buffer, unions unwrapped (`A | B`), arrays and maps readonly.
 * Named types (record, enum, fixed) are declared once through `declare` and
 * referenced by their short name afterwards.
 */

type Json = null | boolean | number | string | readonly Json[] | { readonly [k: string]: Json };
type JsonObject = { readonly [k: string]: Json };

/** A named Avro type hoisted to a top-level TS declaration. */
export interface NamedDeclaration {
  readonly fullName: string;
  readonly shortName: string;
  /** The TS source of the declaration (interface, or `as const` table + union). */
  readonly source: string;
}

export interface TypeScope {
  readonly namespace: string | undefined;
  /** Declared named types by full name, in declaration order. */
  readonly declared: Map<string, NamedDeclaration>;
}

const PRIMITIVES: Readonly<Record<string, string>> = {
  null: 'null',
  boolean: 'boolean',
  int: 'number',
  long: 'bigint',
  float: 'number',
  double: 'number',
  bytes: 'Buffer',
  string: 'string',
};

export function tsTypeFor(schema: Json, scope: TypeScope): string {
  if (typeof schema === 'string') return primitiveOrReference(schema, scope);
  if (Array.isArray(schema)) {
    return schema.map((branch: Json) => tsTypeFor(branch, scope)).join(' | ');
  }
  if (typeof schema !== 'object' || schema === null) throw new Error(`not an Avro schema: ${JSON.stringify(schema)}`);
  const obj = schema as JsonObject;
  switch (obj['type']) {
    case 'record':
    case 'error':
      return declareRecord(obj, scope);
    case 'enum':
      return declareEnum(obj, scope);
    case 'fixed':
      declareNamed(obj, scope, () => `/** Avro fixed(${String(obj['size'])}). */\nexport type ${shortNameOf(obj)} = Buffer;\n`);
      return shortNameOf(obj);
    case 'array':
    {
      const items = tsTypeFor(obj['items'] ?? null, scope);
      return items.includes(' | ') ? `readonly (${items})[]` : `readonly ${items}[]`;
    }
    case 'map':
      return `Readonly<Record<string, ${tsTypeFor(obj['values'] ?? null, scope)}>>`;
    default:
      // A primitive in object form, possibly with a logicalType we do not interpret.
      return primitiveOrReference(String(obj['type']), scope);
  }
}

function primitiveOrReference(name: string, scope: TypeScope): string {
  const primitive = PRIMITIVES[name];
  if (primitive !== undefined) return primitive;
  const full = name.includes('.') || scope.namespace === undefined ? name : `${scope.namespace}.${name}`;
  const found = scope.declared.get(full) ?? scope.declared.get(name);
  if (!found) throw new Error(`undefined Avro type name: ${name}`);
  return found.shortName;
}

function fullNameOf(obj: JsonObject, namespace: string | undefined): string {
  const name = String(obj['name']);
  if (name.includes('.')) return name;
  const ns = typeof obj['namespace'] === 'string' ? obj['namespace'] : namespace;
  return ns ? `${ns}.${name}` : name;
}

function shortNameOf(obj: JsonObject): string {
  const name = String(obj['name']);
  return name.slice(name.lastIndexOf('.') + 1);
}

function declareNamed(obj: JsonObject, scope: TypeScope, render: () => string): void {
  const fullName = fullNameOf(obj, scope.namespace);
  const shortName = shortNameOf(obj);
  for (const d of scope.declared.values()) {
    if (d.shortName === shortName) throw new Error(`two Avro types share the short name ${shortName}`);
  }
  // Registered before rendering so a recursive record can refer to itself.
  const placeholder = { fullName, shortName, source: '' };
  scope.declared.set(fullName, placeholder);
  scope.declared.set(fullName, { ...placeholder, source: render() });
}

function docComment(doc: Json | undefined, indent: string, extra?: string): string {
  const lines = [typeof doc === 'string' ? doc : undefined, extra].filter((l): l is string => !!l);
  if (lines.length === 0) return '';
  const safe = lines.map((l) => l.replaceAll('*/', '*\\/'));
  if (safe.length === 1) return `${indent}/** ${safe[0]} */\n`;
  return `${indent}/**\n${safe.map((l) => `${indent} * ${l}\n`).join('')}${indent} */\n`;
}

function declareEnum(obj: JsonObject, scope: TypeScope): string {
  const name = shortNameOf(obj);
  const symbols = (obj['symbols'] ?? []) as readonly string[];
  declareNamed(obj, scope, () => {
    const entries = symbols.map((s) => `  ${s}: '${s}',\n`).join('');
    return (
      docComment(obj['doc'], '') +
      `export const ${name} = {\n${entries}} as const;\n` +
      `export type ${name} = (typeof ${name})[keyof typeof ${name}];\n`
    );
  });
  return name;
}

function declareRecord(obj: JsonObject, outer: TypeScope): string {
  const name = shortNameOf(obj);
  const fullName = fullNameOf(obj, outer.namespace);
  const scope: TypeScope = { namespace: fullName.includes('.') ? fullName.slice(0, fullName.lastIndexOf('.')) : undefined, declared: outer.declared };
  declareNamed(obj, outer, () => {
    const fields = ((obj['fields'] ?? []) as readonly JsonObject[]).map((field) => {
      const fieldSchema = field['type'] ?? null;
      const logical =
        typeof fieldSchema === 'object' && fieldSchema !== null && !Array.isArray(fieldSchema)
          ? (fieldSchema as JsonObject)['logicalType']
          : undefined;
      const note = typeof logical === 'string' ? `Avro logicalType ${logical}, not interpreted: the raw value.` : undefined;
      // A field defaulting to null may be omitted by writers (avsc writes the default); decoders always set it.
      const optional = 'default' in field && field['default'] === null ? '?' : '';
      return docComment(field['doc'], '  ', note) + `  readonly ${String(field['name'])}${optional}: ${tsTypeFor(fieldSchema, scope)};\n`;
    });
    return docComment(obj['doc'], '') + `export interface ${name} {\n${fields.join('')}}\n`;
  });
  return name;
}
