/** FNV-1a, 32 bits, over bytes (http://www.isthe.com/chongo/tech/comp/fnv/). Stable across processes and languages. */
export function fnv1a32(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}
