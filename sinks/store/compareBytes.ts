/**
 * Unsigned lexicographic order of byte strings, the order Cassandra's
 * BytesType gives blob clustering keys: bytes compare as 0..255 and a proper
 * prefix sorts before its extensions. Returns <0, 0 or >0.
 */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && compareBytes(a, b) === 0;
}
