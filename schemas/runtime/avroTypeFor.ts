import avro from 'avsc';
import { bigintLongType } from './bigintLongType.ts';
import { ExactFirstUnionType } from './ExactFirstUnionType.ts';

/**
 * avsc typeHook: every `long`, bare or with a logicalType, becomes the bigint
 * long (logical types are not interpreted); every union an ExactFirstUnionType.
 */
function edgestreamTypes(schema: avro.Schema, opts: unknown): avro.Type | undefined {
  if (Array.isArray(schema)) return new ExactFirstUnionType(schema, opts);
  if (schema === 'long') return bigintLongType;
  if (typeof schema === 'object' && schema !== null && (schema as { type?: unknown }).type === 'long') {
    return bigintLongType;
  }
  return undefined;
}

/**
 * The one way edgestream turns an Avro schema into an avsc type, so the
 * generated TS types, the encoder and the decoder all agree on value shapes:
 * - `long` → bigint (see bigintLongType),
 * - unions are never wrapped: a union value is the bare branch value. A union
 *   avsc cannot tell apart that way (e.g. float and double) is rejected here,
 *   rather than silently changing shape. Resolving a writer into a union
 *   prefers the branch of the same type (see ExactFirstUnionType),
 * - records decode to plain objects without avsc's clone/toBuffer methods.
 * Throws (avsc's Error) if the schema is invalid.
 */
export function avroTypeFor(schema: string | object): avro.Type {
  // A fresh registry per call: avsc adds every named type to it, and sharing
  // one would make the second schema defining `io.edgestream.X` fail.
  return avro.Type.forSchema(schema as avro.Schema, {
    typeHook: edgestreamTypes,
    wrapUnions: 'never',
    omitRecordMethods: true,
    registry: {},
  });
}
