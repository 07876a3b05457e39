/**
 * Why an id or name is unusable, or undefined if it is fine. Shared by every
 * identifier-like field: ids become partition ids and keys (UTF-8 bytes), so
 * they must be non-empty, bounded in bytes, well-formed UTF-16 (a lone
 * surrogate has no UTF-8 form) and free of U+0000 (the separator of composite
 * ids such as the property bag id `min(a,b) ␀ max(a,b)`).
 */
const LONE_SURROGATE = /\p{Cs}/u;

export function textProblem(text: string, maxBytes: number): string | undefined {
  if (text.length === 0) return 'must not be empty';
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) return `is ${bytes} UTF-8 bytes, more than the ${maxBytes} allowed`;
  if (text.includes('\u0000')) return 'must not contain U+0000';
  if (LONE_SURROGATE.test(text)) return 'contains a lone UTF-16 surrogate (not encodable as UTF-8)';
  return undefined;
}

/** Property names that would reach `Object.prototype` machinery when a bag is handled as a plain object. */
export const RESERVED_PROPERTY_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export const isWellFormed = (text: string): boolean => !LONE_SURROGATE.test(text);
