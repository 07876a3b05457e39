import avro from 'avsc';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Avro `long` as a JS `bigint`, exact over the whole int64 range.
 *
 * Why not avsc's default (JS number): it throws "potential precision loss" on
 * any long above 2^53, and inside a union it cannot tell `long` from `double`
 * (3 and 3.0 are the same number). With bigint, `3n` is always a long and `3`
 * always a double, so property values round-trip with their branch intact.
 *
 * avsc hands `fromBuffer` the zigzag-decoded value as 8 little-endian bytes of
 * two's complement and expects the same back from `toBuffer`
 * (`LongType.__with`, avsc 5.7 lib/types.js).
 *
 * JSON form (only used for schema defaults and avsc's clone/toString): a
 * number when it is a safe integer, a decimal string otherwise; both parse back.
 */
export const bigintLongType = avro.types.LongType.__with({
  fromBuffer: (buf: Buffer): bigint => buf.readBigInt64LE(0),
  toBuffer: (n: bigint): Buffer => {
    const buf = Buffer.alloc(8);
    buf.writeBigInt64LE(n, 0);
    return buf;
  },
  fromJSON: (json: unknown): bigint => {
    if (typeof json === 'bigint') return json;
    if (typeof json === 'number' || typeof json === 'string') return BigInt(json);
    throw new TypeError(`cannot read ${typeof json} as an Avro long`);
  },
  toJSON: (n: bigint): number | string =>
    n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString(),
  isValid: (n: unknown): boolean => typeof n === 'bigint' && n >= INT64_MIN && n <= INT64_MAX,
  compare: (a: bigint, b: bigint): number => (a === b ? 0 : a < b ? -1 : 1),
});
