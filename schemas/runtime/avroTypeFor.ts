import avro from 'avsc';
import { bigintLongType } from './bigintLongType.ts';

/** Every `long`, bare or with a logicalType, becomes the bigint long (logical types are not interpreted). */
function longAsBigint(schema: avro.Schema): avro.Type | undefined {
  if (schema === 'long') return bigintLongType;
  if (typeof schema === 'object' && schema !== null && !Array.isArray(schema) && (schema as { type?: unknown }).type === 'long') {
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
 *   rather than silently changing shape,
 * - records decode to plain objects without avsc's clone/toBuffer methods.
 * Throws (avsc's Error) if the schema is invalid.
 */
export function avroTypeFor(schema: string | object): avro.Type {
  // A fresh registry per call: avsc adds every named type to it, and sharing
  // one would make the second schema defining `io.edgestream.X` fail.
  return avro.Type.forSchema(schema as avro.Schema, {
    typeHook: longAsBigint,
    wrapUnions: 'never',
    omitRecordMethods: true,
    registry: {},
  });
}
