import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecodeError } from './DecodeError.ts';
import { decodeWireFrame } from './decodeWireFrame.ts';
import { encodeWireFrame } from './encodeWireFrame.ts';

describe('decodeWireFrame', () => {
  it.each([
    ['an empty buffer', [], 'BAD_MAGIC_BYTE'],
    ['a buffer shorter than the header', [0, 0, 0, 1], 'BAD_MAGIC_BYTE'],
    ['a magic byte of 1', [1, 0, 0, 0, 1, 2], 'BAD_MAGIC_BYTE'],
    ['a JSON value', [...Buffer.from('{"a":1}')], 'BAD_MAGIC_BYTE'],
    ['a negative schema id', [0, 0xff, 0xff, 0xff, 0xff, 2], 'UNKNOWN_SCHEMA_ID'],
  ] as const)('rejects %s with %s, not retriable', (_name, bytes, code) => {
    let thrown: unknown;
    try {
      decodeWireFrame(Buffer.from(bytes));
    } catch (e) {
      thrown = e;
    }
    expect(DecodeError.is(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code, retriable: false });
  });

  it('accepts a header with an empty body (the Avro step decides whether that is valid)', () => {
    expect(decodeWireFrame(Buffer.from([0, 0, 0, 0, 9]))).toEqual({ schemaId: 9, payload: Buffer.alloc(0) });
  });

  it('splits what encodeWireFrame joins, for any id and body', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0x7fffffff }), fc.uint8Array({ maxLength: 64 }), (schemaId, body) => {
        const frame = decodeWireFrame(encodeWireFrame(schemaId, Buffer.from(body)));
        expect(frame.schemaId).toBe(schemaId);
        expect(frame.payload).toEqual(Buffer.from(body));
      }),
    );
  });

  it('encodeWireFrame refuses an id that does not fit a non-negative int32', () => {
    expect(() => encodeWireFrame(2 ** 31, Buffer.alloc(0))).toThrow(RangeError);
    expect(() => encodeWireFrame(-1, Buffer.alloc(0))).toThrow(RangeError);
  });
});
