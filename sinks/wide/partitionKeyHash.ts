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
    h1 = lane1(h1, namespace.charCodeAt(i));
    h2 = lane2(h2, namespace.charCodeAt(i));
  }
  // The separator, a step with unit 0: ("ab", "c") and ("a", "bc") hash apart.
  h1 = lane1(h1, 0);
  h2 = lane2(h2, 0);
  for (let i = 0; i < id.length; i++) {
    h1 = lane1(h1, id.charCodeAt(i));
    h2 = lane2(h2, id.charCodeAt(i));
  }
  const n = namespace.length + id.length;
  out[0] = fmix32(h1 ^ n);
  out[1] = fmix32(h2 ^ n);
}

/** One code unit into a lane: xor, odd multiply, xor-shift (small enough for V8 to inline). */
function lane1(h: number, unit: number): number {
  h = Math.imul(h ^ unit, 0xcc9e2d51);
  return h ^ (h >>> 15);
}

function lane2(h: number, unit: number): number {
  h = Math.imul(h ^ unit, 0x1b873593);
  return h ^ (h >>> 13);
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
