import type { EdgeMutation } from '../generated/EdgeMutation.ts';

/**
 * The stored size of one property value: one tag byte plus the payload, exactly
 * the length of sinks/namespaces `encodePropertyValue` (schemas/ may not import
 * sinks/, so the rule is restated here; a unit test keeps the two equal).
 */
export function propertyValueBytes(value: EdgeMutation['properties'][string]): number {
  if (value === null) return 1;
  switch (typeof value) {
    case 'boolean':
      return 2;
    case 'bigint':
    case 'number':
      return 9;
    case 'string':
      return 1 + Buffer.byteLength(value, 'utf8');
    default:
      return 1 + value.length;
  }
}
