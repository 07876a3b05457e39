/**
 * Two 32-bit hashes of the partition key `namespace ␀ id` in one pass over the
 * strings' UTF-16 code units, without building the key: no concatenation, no
 * TextEncoder, no WebAssembly crossing (each of those cost more than the whole
 * check at a million keys). Each lane is a step of xor, odd multiply and
 * xor-shift per code unit (a bijection of the state, so short keys never collide
 * in a lane), finished with MurmurHash3's fmix32 and the length; the lanes differ
 * in seed and multiplier. Writes [h1, h2] into `out` (reused: no allocation).
 */
export function hashPartitionKey(namespace: string, id: string, out: Uint32Array): void {
  let h1 = 0x9747b28c;
  let h2 = 0x5bd1e995;
  for (let i = 0; i < namespace.length; i++) {
    const c = namespace.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0xcc9e2d51);
    h1 ^= h1 >>> 15;
    h2 = Math.imul(h2 ^ c, 0x1b873593);
    h2 ^= h2 >>> 13;
  }
  // The separator: ("ab", "c") and ("a", "bc") hash apart.
  h1 = Math.imul(h1, 0xcc9e2d51);
  h1 ^= h1 >>> 15;
  h2 = Math.imul(h2, 0x1b873593);
  h2 ^= h2 >>> 13;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0xcc9e2d51);
    h1 ^= h1 >>> 15;
    h2 = Math.imul(h2 ^ c, 0x1b873593);
    h2 ^= h2 >>> 13;
  }
  const n = namespace.length + id.length;
  out[0] = fmix32(h1 ^ n);
  out[1] = fmix32(h2 ^ n);
}

/** MurmurHash3's finalizer: every input bit reaches every output bit. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
