import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePropertyValue, encodePropertyValue, type PropertyValue } from './propertyValue.ts';

const propertyValue: fc.Arbitrary<PropertyValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.double(),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.uint8Array({ maxLength: 20 }).map((b) => Buffer.from(b)),
);

describe('PropertyValue', () => {
  it.each<[string, PropertyValue, number[]]>([
    ['null', null, [0x00]],
    ['false', false, [0x01, 0x00]],
    ['true', true, [0x01, 0x01]],
    ['long -1', -1n, [0x02, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]],
    ['double 1', 1, [0x03, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0]],
    ['NaN (canonical)', NaN, [0x03, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0]],
    ['string', 'hé', [0x04, 0x68, 0xc3, 0xa9]],
    ['bytes', Buffer.from([9, 8]), [0x05, 9, 8]],
  ])('encodes %s with its tag byte', (_, value, bytes) => {
    expect([...encodePropertyValue(value)]).toEqual(bytes);
  });

  it('round-trips every value exactly, keeping bigint and number apart', () => {
    fc.assert(
      fc.property(propertyValue, (v) => {
        const back = decodePropertyValue(encodePropertyValue(v));
        expect(typeof back).toBe(typeof v);
        if (Buffer.isBuffer(v)) expect(Buffer.isBuffer(back) && back.equals(v)).toBe(true);
        else expect(Object.is(back, v)).toBe(true);
      }),
    );
  });

  it('distinguishes 2n from 2 and -0 from 0', () => {
    expect(decodePropertyValue(encodePropertyValue(2n))).toBe(2n);
    expect(decodePropertyValue(encodePropertyValue(2))).toBe(2);
    expect(Object.is(decodePropertyValue(encodePropertyValue(-0)), -0)).toBe(true);
  });

  it.each([
    ['empty', [], /no tag byte/],
    ['unknown tag', [0x06], /unknown tag 0x06/],
    ['short long', [0x02, 1], /long needs a 8-byte payload/],
    ['bad boolean', [0x01, 2], /must be 0 or 1/],
    ['null with payload', [0x00, 0], /null needs a 0-byte payload/],
    ['bad UTF-8', [0x04, 0xc3], /not valid UTF-8/],
  ])('rejects %s', (_, bytes, message) => {
    expect(() => decodePropertyValue(Uint8Array.from(bytes))).toThrow(message);
  });

  it('rejects a long outside i64', () => {
    expect(() => encodePropertyValue(2n ** 63n)).toThrow(/does not fit a signed 64-bit integer/);
  });
});
