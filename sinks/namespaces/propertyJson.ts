import type { PropertyValue } from './propertyValue.ts';

/** A property value with its Avro type, losslessly as JSON (a long is a decimal string, bytes base64). */
export function propertyJson(value: PropertyValue): { type: string; value: unknown } {
  if (value === null) return { type: 'null', value: null };
  if (Buffer.isBuffer(value)) return { type: 'bytes', value: value.toString('base64') };
  switch (typeof value) {
    case 'bigint':
      return { type: 'long', value: value.toString() };
    case 'number':
      return { type: 'double', value: Number.isFinite(value) ? value : String(value) };
    case 'boolean':
      return { type: 'boolean', value };
    default:
      return { type: 'string', value };
  }
}
