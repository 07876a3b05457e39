/**
 * The exclusive upper bound of all keys starting with `prefix`: drop trailing
 * 0xff bytes and increment the last remaining one. Undefined when no such
 * bound exists (empty prefix or all 0xff), meaning "to the end".
 */
export function prefixEnd(prefix: Uint8Array): Uint8Array | undefined {
  let i = prefix.length - 1;
  while (i >= 0 && prefix[i] === 0xff) i--;
  if (i < 0) return undefined;
  const end = prefix.slice(0, i + 1);
  end[i] = (end[i] as number) + 1;
  return end;
}

/** The smallest key greater than `key` in unsigned lexicographic order: `key` followed by 0x00. */
export function keySuccessor(key: Uint8Array): Uint8Array {
  const next = new Uint8Array(key.length + 1);
  next.set(key);
  return next;
}
