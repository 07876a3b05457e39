/** Hand-written Avro binary, for tests that need bodies no encoder would write. */

/** Avro `int`/`long`: zigzag, then base-128 varint (any bigint, so out-of-range values can be written too). */
export function varint(n: bigint | number): Buffer {
  let z = BigInt(n) >= 0n ? BigInt(n) << 1n : ((-BigInt(n)) << 1n) - 1n;
  const bytes: number[] = [];
  do {
    const low = Number(z & 0x7fn);
    z >>= 7n;
    bytes.push(z > 0n ? low | 0x80 : low);
  } while (z > 0n);
  return Buffer.from(bytes);
}

/** Avro `string`: length varint, then UTF-8. */
export function avroString(s: string): Buffer {
  const utf8 = Buffer.from(s, 'utf8');
  return Buffer.concat([varint(utf8.length), utf8]);
}

export interface HostileBody {
  readonly name: string;
  readonly body: Buffer;
  /** The DecodeError code it must fail with. */
  readonly code: 'BAD_LENGTH' | 'BAD_PAYLOAD';
  /** The field path the DecodeError message must name. */
  readonly names: string;
}

/**
 * EdgeMutation v1 bodies that are correctly framed up to one field that
 * declares far more than the body holds: the corpus of issue 11 item 1.
 * `eventTime` makes them plausible up to the bad field. avsc 5.7 spins on
 * the map/array counts (it loops on the declared count, reading past the
 * end); the others it rejects on its own.
 */
export function hostileEdgeMutations(eventTime: bigint, id = 'hostile'): HostileBody[] {
  const upToTime = (mutationId: string) => Buffer.concat([avroString(mutationId), varint(0), avroString('follows'), avroString('h-src'), avroString('h-dst')]);
  const head = (mutationId: string) => Buffer.concat([upToTime(mutationId), varint(eventTime)]);
  const big = 1n << 40n;
  return [
    { name: 'map-count', body: Buffer.concat([head(`${id}-1`), varint(big)]), names: 'properties', code: 'BAD_LENGTH' },
    { name: 'array-count', body: Buffer.concat([head(`${id}-2`), varint(0), varint((1n << 31n) - 1n)]), names: 'property_keys', code: 'BAD_LENGTH' },
    { name: 'negative-block-huge-size', body: Buffer.concat([head(`${id}-3`), varint(-big), varint(1n << 60n), varint(0)]), names: 'properties', code: 'BAD_LENGTH' },
    { name: 'string-length', body: Buffer.concat([varint(1n << 50n), Buffer.from('abc')]), names: 'mutation_id', code: 'BAD_LENGTH' },
    {
      name: 'map-key-length',
      body: Buffer.concat([head(`${id}-5`), varint(1), varint(big), Buffer.from('k'), varint(0), varint(0)]),
      names: 'properties',
      code: 'BAD_LENGTH',
    },
    { name: 'overlong-varint', body: Buffer.concat([upToTime(`${id}-6`), Buffer.alloc(11, 0xff), Buffer.from([1]), varint(0), varint(0)]), names: 'event_time', code: 'BAD_PAYLOAD' },
    {
      name: 'array-count-after-a-valid-map',
      body: Buffer.concat([head(`${id}-7`), varint(1), avroString('w'), varint(2), varint(7), varint(0), varint(1n << 33n)]),
      names: 'property_keys',
      code: 'BAD_LENGTH',
    },
  ];
}
