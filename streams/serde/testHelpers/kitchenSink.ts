import fc from 'fast-check';

/**
 * A record with every Avro type the body check bounds, including items that
 * encode in 0 bytes (null, an empty record), a map of arrays and a recursive
 * list through a union.
 */
export const kitchenSinkSchema = {
  type: 'record',
  name: 'Sink',
  namespace: 'io.edgestream.test',
  fields: [
    { name: 'i', type: 'int' },
    { name: 'f', type: 'float' },
    { name: 'd', type: 'double' },
    { name: 'b', type: 'boolean' },
    { name: 'fx', type: { type: 'fixed', name: 'F4', size: 4 } },
    { name: 'e', type: { type: 'enum', name: 'E', symbols: ['A', 'B', 'C'] } },
    { name: 'nulls', type: { type: 'array', items: 'null' } },
    { name: 'empties', type: { type: 'array', items: { type: 'record', name: 'Empty', fields: [] } } },
    { name: 'm', type: { type: 'map', values: { type: 'array', items: 'long' } } },
    { name: 'list', type: ['null', { type: 'record', name: 'Node', fields: [{ name: 'v', type: 'bytes' }, { name: 'next', type: ['null', 'Node'] }] }] },
  ],
} as const;

interface Node {
  readonly v: Buffer;
  readonly next: Node | null;
}

/** Values of kitchenSinkSchema (longs as bigint, as avroTypeFor reads them). */
export const kitchenSinkArb = fc.record({
  i: fc.integer(),
  f: fc.float({ noNaN: true }).map((x) => Math.fround(x)),
  d: fc.double({ noNaN: true }),
  b: fc.boolean(),
  fx: fc.uint8Array({ minLength: 4, maxLength: 4 }).map((a) => Buffer.from(a)),
  e: fc.constantFrom('A', 'B', 'C'),
  nulls: fc.array(fc.constant(null), { maxLength: 20 }),
  empties: fc.array(fc.constant({}), { maxLength: 20 }),
  m: fc.dictionary(fc.string({ maxLength: 6 }).filter((k) => k !== '__proto__'), fc.array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { maxLength: 4 }), { maxKeys: 4 }),
  list: fc.array(fc.uint8Array({ maxLength: 6 }), { maxLength: 6 }).map((vs) => vs.reduceRight<Node | null>((next, v) => ({ v: Buffer.from(v), next }), null)),
});
