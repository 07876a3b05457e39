import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { avroTypeFor, knownSchemas } from '../../schemas/index.ts';
import { compileBodyCheck, MAX_NESTING, MAX_ZERO_BYTE_ITEMS } from './compileBodyCheck.ts';
import { DecodeError } from './DecodeError.ts';
import { edgeMutationArb } from './testHelpers/edgeMutationArb.ts';
import { avroString, hostileEdgeMutations, varint } from './testHelpers/hostileBodies.ts';
import { kitchenSinkArb, kitchenSinkSchema } from './testHelpers/kitchenSink.ts';

const edgeMutation = avroTypeFor(knownSchemas.EdgeMutation.avsc);
const checkEdgeMutation = compileBodyCheck(edgeMutation);
const sink = avroTypeFor(kitchenSinkSchema);
const checkSink = compileBodyCheck(sink);

function failure(check: () => void): DecodeError {
  try {
    check();
  } catch (e) {
    if (DecodeError.is(e)) return e;
    throw e;
  }
  throw new Error('expected a DecodeError, the body passed');
}

/** A body of `Sink` with every field minimal and `nulls` replaced by `nullsBlock` (raw block bytes). */
function sinkWithNulls(nullsBlock: Buffer): Buffer {
  const before = Buffer.concat([varint(0), Buffer.alloc(4), Buffer.alloc(8), Buffer.from([0]), Buffer.alloc(4), varint(0)]);
  return Buffer.concat([before, nullsBlock, varint(0), varint(0), varint(0)]);
}

describe('compileBodyCheck', () => {
  it.each(hostileEdgeMutations(1_700_000_000_000_000n).map((h) => [h.name, h] as const))('refuses the hostile %s body, naming the field', (_name, h) => {
    const e = failure(() => checkEdgeMutation(h.body, 7));
    expect(e.code).toBe(h.code);
    expect(e).toMatchObject({ retriable: false, schemaId: 7 });
    expect(e.message).toContain(`at ${h.names}`);
  });

  it('says what was declared and what was left', () => {
    const [mapCount] = hostileEdgeMutations(1n);
    expect(failure(() => checkEdgeMutation(mapCount?.body as Buffer, 1)).message).toMatch(
      /^Avro body \(\d+ bytes, schema 1\) at properties: map block declares 1099511627776 entries, but only 0 bytes remain \(an entry takes at least 2\)$/,
    );
  });

  it('passes every EdgeMutation and every kitchen-sink value avsc encodes', () => {
    fc.assert(fc.property(edgeMutationArb, (v) => checkEdgeMutation(edgeMutation.toBuffer(v), 1)), { numRuns: 300 });
    fc.assert(fc.property(kitchenSinkArb, (v) => checkSink(sink.toBuffer(v), 1)), { numRuns: 300 });
  });

  // property_keys is followed by edge_time and data (v2), both null here: one union index 0 each.
  const NULL_TAIL = Buffer.from([0, 0]);
  const withoutKeysAndTail = () => edgeMutation.toBuffer({ ...sampleEvent(), property_keys: [] }).subarray(0, -1 - NULL_TAIL.length);

  it('passes blocks written with a negative count and their byte size (the form avsc also reads)', () => {
    const items = Buffer.concat([avroString('a'), avroString('bc')]);
    const body = Buffer.concat([withoutKeysAndTail(), varint(-2), varint(items.length), items, varint(0), NULL_TAIL]);
    checkEdgeMutation(body, 1);
    expect((edgeMutation.fromBuffer(body) as { property_keys: string[] }).property_keys).toEqual(['a', 'bc']);
  });

  it.each([
    ['a byte size that is not what its items take', varint(3)],
    ['a negative byte size', varint(-4)],
  ])('refuses a negative-count block with %s', (_what, size) => {
    const items = Buffer.concat([avroString('a'), avroString('bc')]);
    const body = Buffer.concat([withoutKeysAndTail(), varint(-2), size, items, varint(0), NULL_TAIL]);
    const e = failure(() => checkEdgeMutation(body, 1));
    expect(e.code).toBe('BAD_LENGTH');
    expect(e.message).toContain('at property_keys: array block');
  });

  it(`bounds items that take 0 bytes by MAX_ZERO_BYTE_ITEMS (${MAX_ZERO_BYTE_ITEMS}) per record, over all blocks`, () => {
    checkSink(sinkWithNulls(Buffer.concat([varint(MAX_ZERO_BYTE_ITEMS), varint(0)])), 1);
    const split = sinkWithNulls(Buffer.concat([varint(MAX_ZERO_BYTE_ITEMS - 1), varint(2), varint(0)]));
    expect(failure(() => checkSink(split, 1)).message).toContain(`at nulls: array block declares 2 items that may take 0 bytes each; a record may hold at most ${MAX_ZERO_BYTE_ITEMS}`);
    expect(failure(() => checkSink(sinkWithNulls(Buffer.concat([varint(2n ** 62n), varint(0)])), 1)).code).toBe('BAD_LENGTH');
  });

  it(`refuses records nested deeper than ${MAX_NESTING} (a recursive schema) and passes shallower ones`, () => {
    const list = (depth: number) => Buffer.concat([Buffer.alloc(depth, 2), varint(0)]); // union branch 1 (Node), then null
    const type = avroTypeFor({ type: 'record', name: 'L', fields: [{ name: 'next', type: ['null', 'L'] }] });
    const check = compileBodyCheck(type);
    check(list(MAX_NESTING - 1), 1);
    expect(failure(() => check(list(MAX_NESTING + 5), 1)).message).toContain(`records nested deeper than ${MAX_NESTING}`);
  });

  it.each([
    ['a union index out of range', Buffer.concat([sink.toBuffer(sinkValue()).subarray(0, -1), varint(5)]), 'at list: union index 5 is outside 0..1'],
    ['an int varint longer than 5 bytes', Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0x01])]), 'at i: varint longer than 5 bytes (int)'],
    ['a body cut inside a fixed', sink.toBuffer(sinkValue()).subarray(0, 16), 'at fx: needs 4 bytes, but 2 remain'],
    ['trailing bytes', Buffer.concat([sink.toBuffer(sinkValue()), Buffer.from([0])]), 'at (root): 1 trailing bytes after the record'],
  ])('refuses %s (BAD_PAYLOAD)', (_what, body, message) => {
    const e = failure(() => checkSink(body, 1));
    expect(e.code).toBe('BAD_PAYLOAD');
    expect(e.message).toContain(message);
  });
});

function sampleEvent() {
  return { mutation_id: 'm', op: 'ADD_EDGE', edge_type: 'follows', src: 's', dst: 'd', event_time: 1n, properties: {}, property_keys: [] };
}

function sinkValue() {
  return { i: 1, f: 0.5, d: 0.25, b: true, fx: Buffer.from([1, 2, 3, 4]), e: 'B', nulls: [], empties: [], m: {}, list: null };
}
