import bloomFilters from 'bloom-filters';
import xxhash from 'xxhash-wasm';

const { BloomFilter, Hashing } = bloomFilters;

/** A Bloom filter of partition keys: the split directory's "might this partition be split?". */
export interface PartitionFilter {
  add(key: string): void;
  has(key: string): boolean;
  readonly bits: number;
  readonly hashes: number;
}

type Hash32 = (input: string, seed?: number) => number;

/**
 * bloom-filters' default hashing is a pure-JS XXH64 computed twice per check and a
 * fresh index array (8.5–11 µs a check here). This keeps its filter and swaps in the
 * WebAssembly xxh32 (xxhash-wasm) with Kirsch–Mitzenmacher double hashing into one
 * reused array: `has` and `add` are synchronous, so nothing else can see it meanwhile.
 */
class Xxh32Hashing extends Hashing {
  private readonly out: number[] = [];
  constructor(private readonly h32: Hash32) {
    super();
  }
  override getIndexes(element: string, size: number, hashCount: number): number[] {
    const h1 = this.h32(element, 0x9747b28c);
    const h2 = this.h32(element, 0x5bd1e995) | 1; // odd: never a zero stride
    const out = this.out;
    out.length = hashCount;
    for (let i = 0; i < hashCount; i++) out[i] = ((h1 + Math.imul(i, h2)) >>> 0) % size;
    return out;
  }
}

let hashing: Promise<Xxh32Hashing> | undefined;

/** A filter sized for `expected` keys at `falsePositiveRate` (compiles the xxhash module on first use). */
export async function createPartitionFilter(expected: number, falsePositiveRate: number): Promise<PartitionFilter> {
  hashing ??= xxhash().then((api) => new Xxh32Hashing(api.h32));
  const filter = BloomFilter.create(Math.max(expected, 64), falsePositiveRate);
  filter._hashing = await hashing;
  return {
    add: (key) => filter.add(key),
    has: (key) => filter.has(key),
    bits: filter.size,
    hashes: filter._nbHashes,
  };
}
